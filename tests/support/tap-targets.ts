/**
 * The touch targets of a page that are too small for a finger: every visible, enabled control
 * (shadow roots included, as the PWA's elements keep theirs there) whose box is under 44×44 CSS
 * pixels, the size WCAG 2.5.5 and Apple's and Google's guidelines ask for.
 */
import type { Page } from 'playwright-core';

/** The least width and height of a touch target, in CSS pixels. */
export const TAP_MIN = 44;

export interface SmallTarget {
  tag: string;
  /** The name a screen reader would give it, as near as the page can tell without axe. */
  name: string;
  width: number;
  height: number;
}

/**
 * The controls of `page` smaller than `min` either way. Left out, as a size cannot be asked of
 * them: a link inside running text (its line is its size, WCAG's inline exception), xterm's
 * own elements and the history snapshot find lays over the terminal (text, not controls),
 * a box of text that takes the focus only so the keyboard can scroll it (a finger scrolls
 * it anywhere, and its size is its text's), and what is disabled, hidden or drawn at no size
 * at all.
 */
export function smallTapTargets(page: Page, min = TAP_MIN): Promise<SmallTarget[]> {
  return page.evaluate((min) => {
    const NATIVE = [
      'button',
      'a[href]',
      'input:not([type="hidden"])',
      'select',
      'textarea',
      'summary',
      '[role="button"]',
      '[role="tab"]',
      '[role="radio"]',
      '[role="switch"]',
      '[role="menuitem"]',
    ].join(', ');
    const CONTROLS = `${NATIVE}, [tabindex]:not([tabindex="-1"])`;

    /** Focusable through its tabindex alone, and scrolling: the keyboard's way into a long text. */
    const scrollBox = (el: Element): boolean => {
      if (el.matches(NATIVE) || el.hasAttribute('role')) return false;
      const style = getComputedStyle(el);
      return /auto|scroll/.test(`${style.overflowX} ${style.overflowY}`);
    };

    function* everyElement(root: Document | ShadowRoot): Generator<Element> {
      for (const el of root.querySelectorAll('*')) {
        yield el;
        if (el.shadowRoot) yield* everyElement(el.shadowRoot);
      }
    }

    /** The element's parent, stepping out of a shadow root to its host. */
    const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null);

    /** `closest` across shadow roots. */
    const closestDeep = (el: Element, selector: string): Element | null => {
      for (let at: Element | null = el; at; at = parentOf(at)) if (at.matches(selector)) return at;
      return null;
    };

    const words = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

    /** A link whose block holds other text than its own: part of a sentence, sized by its line. */
    const inRunningText = (link: Element): boolean => {
      let block = parentOf(link);
      while (block && getComputedStyle(block).display.startsWith('inline')) block = parentOf(block);
      return block !== null && words(block.textContent) !== words(link.textContent);
    };

    const nameOf = (el: Element): string => {
      const label = el.getAttribute('aria-label');
      if (label) return label;
      const root = el.getRootNode() as Document | ShadowRoot;
      const by = el.getAttribute('aria-labelledby');
      if (by) return words(by.split(/\s+/).map((id) => root.getElementById(id)?.textContent).join(' '));
      const labels = (el as HTMLInputElement).labels;
      if (labels && labels.length > 0) return words([...labels].map((l) => l.textContent).join(' '));
      return words(el.textContent) || el.getAttribute('title') || el.getAttribute('placeholder') || '';
    };

    const small: { tag: string; name: string; width: number; height: number }[] = [];
    for (const el of everyElement(document)) {
      if (!el.matches(CONTROLS)) continue;
      if (el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true') continue;
      if (closestDeep(el, '.xterm, .pm-history-host, [inert]')) continue;
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (el.matches('a[href]') && inRunningText(el)) continue;
      if (scrollBox(el)) continue;
      // Sub-pixel layout can put a 44 px box at 43.99.
      if (box.width + 0.01 >= min && box.height + 0.01 >= min) continue;
      small.push({ tag: el.localName, name: nameOf(el), width: Math.round(box.width * 10) / 10, height: Math.round(box.height * 10) / 10 });
    }
    return small;
  }, min);
}

/** One line per target: where, what and how big. */
export function describeSmallTargets(where: string, targets: readonly SmallTarget[]): string[] {
  return targets.map((t) => `${where}: <${t.tag}> "${t.name}" is ${t.width}×${t.height} px`);
}
