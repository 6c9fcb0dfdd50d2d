/**
 * Renders rows as left-aligned columns separated by two spaces, header first, no trailing spaces. For
 * humans only: scripts use `--json`, whose shape is the stable contract.
 */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[headers, ...rows].map(render).join('\n')}\n`;
}
