// Bot walls and consent overlays. A challenge page (Cloudflare's "Just a moment…", a captcha
// interstitial, DataDome, PerimeterX) is a failed capture; a consent banner is removed from the
// captured document instead. Detection looks at structure, not at words anywhere in the page, so an
// article that mentions "captcha" is still an article.

export const CHALLENGE_MESSAGE =
  'The site showed a bot check instead of the article, so nothing was saved. Open the original in your browser, or try again later.';

const CHALLENGE_TITLES = [
  /^just a moment(?:\.\.\.|…)?$/i,
  /^un instant(?:\.\.\.|…)?$/i, // Cloudflare's French
  /^einen moment(?:\.\.\.|…)?$/i,
  /^checking your browser(?: before accessing.*)?(?:\.\.\.|…)?$/i,
  /^attention required!?\s*\|\s*cloudflare$/i,
  /^access denied\s*\|.*cloudflare/i,
  /^please verify you are a human$/i,
  /^are you a (?:robot|human)\??$/i,
  /^human verification$/i,
  /^pardon our interruption(?:\.\.\.|…)?$/i,
  /^ddos-guard$/i,
  /^verifying you are human.*$/i,
  /^captcha$/i,
];

const CHALLENGE_MARKERS = [
  /\/cdn-cgi\/challenge-platform\//i,
  /\bcf-chl-(?:widget|opt|bypass)|\bcf_chl_opt\b|window\._cf_chl_opt/i,
  /id=["']challenge-(?:form|running|stage|body-text)["']/i,
  /\bcaptcha-delivery\.com\b|\bgeo\.captcha-delivery\.com|\bdd_captcha|datadome\.co\/captcha/i,
  /\bpx-captcha\b|_pxCaptcha|perimeterx\.net\/.*captcha|\bpx-block\b/i,
  /\bcf-error-details\b.*\bcf-wrapper\b|\bcf-browser-verification\b/is,
];

const CHALLENGE_PHRASES = [
  /checking (?:if the site connection is secure|your browser before accessing)/i,
  /please verify you are a human/i,
  /verify(?:ing)? you are human/i,
  /enable javascript and cookies to continue/i,
  /please complete the security check to access/i,
  /press (?:&amp;|&) hold to confirm you are a human/i,
  /we need to make sure you(?:'|’)?re not a robot/i,
  /our systems have detected unusual traffic/i,
];

export interface ChallengeInput {
  html: string;
  title?: string | null;
  /** Visible text of the body (normalized); when given, lets "near-empty page" checks work. */
  text?: string | null;
  status?: number | null;
}

/** A short reason when the page is a bot wall, else null. */
export function detectChallenge(input: ChallengeInput): string | null {
  const html = input.html;
  const title = (input.title ?? /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '').replace(/\s+/g, ' ').trim();
  const text = (input.text ?? textOf(html)).replace(/\s+/g, ' ').trim();
  const words = text ? text.split(' ').length : 0;
  const small = words < 250;

  if (small) for (const re of CHALLENGE_TITLES) if (re.test(title)) return `challenge title "${title}"`;
  for (const re of CHALLENGE_MARKERS) if (re.test(html) && (small || (input.status ?? 200) >= 400)) return `challenge marker ${re.source.slice(0, 40)}`;
  if (small) {
    for (const re of CHALLENGE_PHRASES) if (re.test(text)) return `challenge text "${re.source.slice(0, 40)}"`;
    // a captcha widget dominating a near-empty page
    const captchaFrame = /<iframe[^>]+src=["'][^"']*(?:hcaptcha\.com|google\.com\/recaptcha|recaptcha\.net|challenges\.cloudflare\.com|captcha-delivery\.com)/i.test(html);
    const captchaDiv = /class=["'][^"']*\b(?:h-captcha|g-recaptcha|cf-turnstile)\b/i.test(html);
    if ((captchaFrame || captchaDiv) && words < 80) return 'captcha interstitial';
  }
  if ((input.status === 403 || input.status === 503 || input.status === 429) && small && /captcha|cloudflare|ddos|bot|robot/i.test(html)) return `bot check (${input.status})`;
  return null;
}

function textOf(html: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  return body
    .replace(/<(script|style|noscript|template)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const CONSENT_SELECTORS = [
  '#onetrust-consent-sdk',
  '#onetrust-banner-sdk',
  '#optanon',
  '.optanon-alert-box-wrapper',
  '#qc-cmp2-container',
  '.qc-cmp2-container',
  '#CybotCookiebotDialog',
  '#CybotCookiebotDialogBodyUnderlay',
  '#usercentrics-root',
  '#didomi-host',
  '.didomi-popup-open',
  '#truste-consent-track',
  '.truste_overlay',
  '.truste_box_overlay',
  '#cmpbox',
  '#cmpbox2',
  '.cc-window',
  '.cc-banner',
  '.cookie-consent',
  '#cookie-consent',
  '.cookieconsent',
  '#cookieconsent',
  '#cookie-banner',
  '.cookie-banner',
  '#cookie-notice',
  '.cookie-notice',
  '#gdpr-consent',
  '.gdpr-banner',
  '.fc-consent-root',
  '[id^="sp_message_container"]',
  '.sp_veil',
  '#consent-banner',
  '.consent-banner',
  '[aria-label="cookieconsent"]',
  '[data-testid="cookie-banner"]',
];

/** Class names sites put on <html>/<body> to stop scrolling while a consent dialog is open. */
const SCROLL_LOCK_CLASSES = ['didomi-popup-open', 'qc-cmp-ui-showing', 'sp-message-open', 'cookiebot-open', 'ot-overflow-hidden', 'modal-open', 'no-scroll', 'noscroll'];

/**
 * Removes consent banners and full-screen cookie overlays from a document (jsdom or a browser's).
 * `isOverlay` lets the browser pass computed-style knowledge (fixed/sticky, covering the viewport);
 * in jsdom the inline style is used. Returns how many elements were removed.
 */
export function removeConsentOverlays(doc: Document, isOverlay?: (el: Element) => boolean): number {
  let removed = 0;
  for (const el of Array.from(doc.querySelectorAll(CONSENT_SELECTORS.join(',')))) {
    if (el === doc.body || el === doc.documentElement || !el.isConnected) continue;
    el.remove();
    removed++;
  }
  const overlay =
    isOverlay ??
    ((el: Element) => {
      const style = (el.getAttribute('style') ?? '').toLowerCase();
      return /position\s*:\s*(fixed|sticky)/.test(style);
    });
  const candidates = Array.from(doc.querySelectorAll('div, section, aside, dialog, form'));
  for (const el of candidates) {
    if (!el.isConnected) continue;
    const id = `${el.id} ${el.getAttribute('class') ?? ''} ${el.getAttribute('role') ?? ''} ${el.getAttribute('aria-label') ?? ''}`.toLowerCase();
    const namedLikeConsent = /cookie|consent|gdpr|cmp\b|privacy-banner/.test(id);
    if (!namedLikeConsent && !overlay(el)) continue; // cheap checks first: textContent of every div is quadratic
    const raw = el.textContent ?? '';
    if (raw.length > 6000) continue;
    const text = raw.replace(/\s+/g, ' ').trim();
    if (text.length > 3000) continue;
    const talksConsent = /\b(cookies?|consent|gdpr)\b/i.test(text) && /\b(accept|agree|allow|reject|manage|settings|preferences|ok)\b/i.test(text);
    if (talksConsent) {
      el.remove();
      removed++;
    }
  }
  for (const root of [doc.documentElement, doc.body]) {
    if (!root) continue;
    for (const c of SCROLL_LOCK_CLASSES) root.classList.remove(c);
    if (removed && /overflow\s*:\s*hidden/i.test(root.getAttribute('style') ?? '')) root.style.removeProperty('overflow');
  }
  return removed;
}
