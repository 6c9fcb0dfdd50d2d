import { useCallback, useEffect, useState } from 'react';

const FLASH_MS = 8000;

export interface Flash {
  text: string;
  tone: 'info' | 'error';
  at: number;
}

/** The footer's message: what was done or refused, until the clock passes FLASH_MS after it was said. */
export function useFlash(clock: number): {
  flash: Flash | null;
  say(text: string, tone?: Flash['tone']): void;
} {
  const [flash, setFlash] = useState<Flash | null>(null);
  const say = useCallback(
    (text: string, tone: Flash['tone'] = 'info') => setFlash({ text, tone, at: Date.now() }),
    [],
  );
  useEffect(() => {
    if (flash && clock - flash.at > FLASH_MS) setFlash(null);
  }, [clock, flash]);
  return { flash, say };
}
