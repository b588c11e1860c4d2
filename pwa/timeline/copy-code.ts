/** How long "Copied" stands on a code block's button. */
const COPIED_MS = 1_500;

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (plain HTTP on a LAN is not a secure context): the old way.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** The copy buttons are part of each answer's HTML; one listener serves them all. */
export async function copyCodeBlock(e: Event): Promise<void> {
  const button = (e.target as Element | null)?.closest?.('button.copy');
  const code = button?.closest('.code')?.querySelector('pre');
  if (!button || !code) return;
  const ok = await copyText(code.textContent ?? '');
  button.textContent = ok ? 'Copied' : 'Copy failed';
  button.classList.toggle('copied', ok);
  setTimeout(() => {
    button.textContent = 'Copy';
    button.classList.remove('copied');
  }, COPIED_MS);
}
