// Bot-wall detection and consent-overlay removal on small HTML samples; false positives matter as
// much as hits (an article about captchas is an article).
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { detectChallenge, removeConsentOverlays } from '../../server/modules/reader/capture/challenge.js';

const words = (n: number, w = 'household') => Array.from({ length: n }, (_, i) => `${w}${i % 7 ? '' : '.'}`).join(' ');
const article = (body: string, title = 'An article') => `<!doctype html><html><head><title>${title}</title></head><body><article>${body}<p>${words(400)}</p></article></body></html>`;

describe('detectChallenge', () => {
  const walls: Array<[string, string, number?]> = [
    ['cloudflare just a moment', `<html><head><title>Just a moment...</title></head><body><div id="challenge-running">Checking if the site connection is secure</div><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>`, 503],
    ['cloudflare with an ellipsis character', `<html><head><title>Just a moment…</title></head><body><p>Enable JavaScript and cookies to continue</p></body></html>`, 403],
    ['cloudflare attention required', `<html><head><title>Attention Required! | Cloudflare</title></head><body><div class="cf-wrapper"><div id="cf-error-details" class="cf-error-details-wrapper">Sorry, you have been blocked</div></div></body></html>`, 403],
    ['cf challenge markers with a neutral title', `<html><head><title>example.com</title><script>window._cf_chl_opt={cvId:'3'}</script></head><body><form id="challenge-form" action="/?__cf_chl_f_tk=x"></form></body></html>`, 200],
    ['checking your browser', `<html><head><title>Checking your browser before accessing example.com</title></head><body>Please wait</body></html>`, 200],
    ['hcaptcha dominating an empty page', `<html><head><title>example.com</title></head><body><h1>One more step</h1><iframe src="https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html#frame=checkbox"></iframe></body></html>`, 200],
    ['recaptcha widget on an empty page', `<html><head><title>Security</title></head><body><form><div class="g-recaptcha" data-sitekey="x"></div><button>Continue</button></form></body></html>`, 200],
    ['please verify you are a human', `<html><head><title>Access to this page has been denied</title></head><body><h1>Please verify you are a human</h1><p>Press &amp; Hold to confirm you are a human (and not a bot).</p></body></html>`, 403],
    ['datadome', `<html><head><title>site.com</title></head><body><script>var dd={'cid':'x','hsh':'y','host':'geo.captcha-delivery.com'}</script><script src="https://ct.captcha-delivery.com/c.js"></script></body></html>`, 403],
    ['perimeterx', `<html><head><title>Access Denied</title></head><body><div id="px-captcha"></div><script>window._pxAppId='PX1';</script></body></html>`, 403],
    ['google unusual traffic', `<html><head><title>Sorry...</title></head><body><div>Our systems have detected unusual traffic from your computer network.</div></body></html>`, 429],
  ];
  for (const [name, html, status] of walls) {
    it(`flags ${name}`, () => {
      expect(detectChallenge({ html, status })).not.toBeNull();
    });
  }

  const articles: Array<[string, string, number?]> = [
    ['an article about captchas and Cloudflare', article(`<h1>How CAPTCHA became a chore</h1><p>Cloudflare's "Just a moment..." page and reCAPTCHA's "Please verify you are a human" prompt ask people to prove they are not robots. Checking your browser before accessing a site is now routine.</p>`)],
    ['an article with a reCAPTCHA comment form', article(`<h1>Sourdough</h1><form class="comments"><textarea></textarea><div class="g-recaptcha" data-sitekey="x"></div></form>`)],
    ['an article embedding the Cloudflare challenge script', article(`<h1>Long read</h1><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>`)],
    ['a short page titled like a phrase', `<html><head><title>Just a moment of silence for the old kettle</title></head><body><p>It boiled its last this morning.</p></body></html>`],
    ['a short normal page', `<html><head><title>Contact</title></head><body><p>Write to us at the address below.</p></body></html>`],
    ['a plain 404', `<html><head><title>Not found</title></head><body><h1>404</h1><p>That page is gone.</p></body></html>`, 404],
  ];
  for (const [name, html, status] of articles) {
    it(`does not flag ${name}`, () => {
      expect(detectChallenge({ html, status })).toBeNull();
    });
  }
});

describe('removeConsentOverlays', () => {
  const doc = (body: string) => new JSDOM(`<!doctype html><html class="didomi-popup-open"><body style="overflow:hidden">${body}</body></html>`).window.document;

  it('removes OneTrust, Quantcast, Cookiebot and generic cookie banners and unlocks scrolling', () => {
    const d = doc(`<article><p>Text stays.</p></article>
<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk">We use cookies <button>Accept</button></div></div>
<div id="qc-cmp2-container">Quantcast choices</div>
<div id="CybotCookiebotDialog">Cookiebot</div>
<div class="cc-window">This website uses cookies. <a>Got it</a></div>
<div class="site-consent-layer">We and our 800 partners store cookies. Do you consent? <button>Agree</button></div>
<section style="position: fixed; inset: 0">Cookies help us. <button>Accept all</button> <button>Reject all</button></section>`);
    expect(removeConsentOverlays(d)).toBeGreaterThanOrEqual(6);
    expect(d.body.textContent!.replace(/\s+/g, ' ').trim()).toBe('Text stays.');
    expect(d.documentElement.classList.contains('didomi-popup-open')).toBe(false);
    expect(d.body.getAttribute('style') ?? '').not.toMatch(/overflow/);
  });

  it('keeps an article about cookies and a fixed header without consent words', () => {
    const d = doc(`<header style="position:fixed;top:0">Site name <a>Menu</a></header>
<div class="recipe"><h1>Chocolate chip cookies</h1><p>Bake the cookies for 12 minutes; accept that the first tray burns. Manage the oven settings carefully.</p>${'<p>More about the dough.</p>'.repeat(5)}</div>`);
    expect(removeConsentOverlays(d)).toBe(0);
    expect(d.querySelector('.recipe')).not.toBeNull();
    expect(d.querySelector('header')).not.toBeNull();
  });
});
