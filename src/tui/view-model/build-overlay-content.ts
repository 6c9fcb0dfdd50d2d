import { type DashboardOverlay, STATS_OVERLAY_TITLE } from '../input/dashboard-input-state.ts';
import type { DetailContent, DetailLine } from './build-detail-content.ts';
import { buildHelpContent } from './build-help-content.ts';

/** The overlay as pane content: the help, or a title line over the fetched lines (or loading / why not). */
export function buildOverlayContent(overlay: DashboardOverlay): DetailContent {
  if (overlay.kind === 'help') return buildHelpContent();
  const { title, content } = overlay;
  const lines: DetailLine[] =
    content.status === 'ok'
      ? content.value
      : [{ text: content.status === 'loading' ? 'loading…' : `cannot read ${title}: ${content.message}` }];
  // The key that opened the stats closes them too; the key list says the same.
  const closers = title === STATS_OVERLAY_TITLE ? 's or Esc closes' : 'Esc closes';
  const headLine: DetailLine = { text: `${title} — ${closers}`, bold: true };
  return {
    length: lines.length + 1,
    at: (index: number) => (index === 0 ? headLine : (lines[index - 1] ?? { text: '' })),
    live: false,
  };
}
