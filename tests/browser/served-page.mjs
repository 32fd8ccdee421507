// Opens the verifier page a running arcade serves, as a visitor would, and checks the floor's
// latest rounds there: each is re-derived and its signatures checked in the page (the wasm it
// serves). Exits 0 when every round checked says PASS; prints each verdict.
//   node tests/browser/served-page.mjs <base-url> <screenshot.png> [rounds]
import { chromium } from 'playwright-core';

const [baseUrl, screenshot, wanted = '3'] = process.argv.slice(2);
if (!baseUrl || !screenshot) {
  console.error('usage: node served-page.mjs <base-url> <screenshot.png> [rounds]');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let failed = 0;
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(baseUrl);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await page.waitForSelector('#recent tbody tr button', { timeout: 60_000 });
  const ids = await page.$$eval('#recent tbody tr button', (buttons) =>
    buttons.map((b) => b.getAttribute('aria-label').replace('verify bet ', '')));
  for (const betId of ids.slice(0, Number(wanted))) {
    await page.click(`#recent button[aria-label="verify bet ${betId}"]`);
    // Done with this round: its verdict, or a failure to check it at all.
    await page.waitForFunction((id) => {
      const result = document.querySelector('#result[data-state="done"]');
      return result && (result.querySelector(`[data-bet-id="${id}"]`) || !result.querySelector('[data-bet-id]')
        || /FAIL/.test(result.textContent));
    }, betId, { timeout: 60_000 });
    const verdict = await page.$(`#result [data-verdict][data-bet-id="${betId}"]`);
    const kind = verdict ? await verdict.getAttribute('data-verdict') : 'no verdict';
    const text = (await page.textContent('#result')).replace(/\s+/g, ' ').trim();
    console.log(`bet ${betId}: ${kind}: ${text.slice(0, 160)}`);
    if (kind !== 'pass') failed += 1;
  }
  await page.screenshot({ path: screenshot, fullPage: true });
  if (errors.length) {
    console.log(`page errors: ${errors.join('; ')}`);
    failed += errors.length;
  }
} finally {
  await browser.close();
}
process.exit(failed === 0 ? 0 : 1);
