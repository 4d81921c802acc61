// Shared helpers of the browser tests: the browser, the server's address,
// sign-up through the pages, and board clicks computed from the page's own
// click layout and the picture's screen transform.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const BASE = process.env.TABULA_URL;
if (!BASE) throw new Error("TABULA_URL is not set: run the tests with tests/browser/run");
export const SCREENSHOTS = process.env.TABULA_SCREENSHOTS || "";

/** Debian's Chromium, headless. Playwright gives every launch a fresh
 * profile directory of its own (it refuses --user-data-dir in `args`). */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A page in a context of its own (its own cookies), with a phone-sized
 * or desk-sized window, and a browser that asks for `language` (an
 * Accept-Language header, as `fi-FI,fi;q=0.9`) if given. */
export async function newPage(browser, { phone = false, language = null } = {}) {
  const context = await browser.newContext({
    baseURL: BASE,
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 900 },
    deviceScaleFactor: 1,
    ...(language ? { extraHTTPHeaders: { "Accept-Language": language } } : {}),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.scriptErrors = errors;
  return page;
}

let serial = 0;
/** A user id not used before in this run (each run has a fresh database). */
export function uniqueUser(prefix) {
  serial += 1;
  return `${prefix}${serial}`;
}

/** Sign up through the form; the new user is logged in after. */
export async function signUp(page, user, password) {
  await page.goto("/signup");
  await page.fill('input[name="user"]', user);
  await page.fill('input[name="password"]', password);
  await page.fill('input[name="password2"]', password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/signup")), page.click('button[type="submit"].primary')]);
  await page.locator(".who", { hasText: user }).waitFor();
}

/** Start a game through the challenge form; returns the board number. */
export async function challenge(page, kind, players, options = {}) {
  await page.goto(`/challenge/${kind}`);
  await page.fill('input[name="players"]', players.join(" "));
  for (const [name, value] of Object.entries(options)) {
    const input = page.locator(`[name="opt_${name}"]`);
    if (value === true) await input.check();
    else await input.fill(String(value));
  }
  await Promise.all([page.waitForURL(/\/games\/\d+$/), page.click('form.challenge button[type="submit"]')]);
  return Number(new URL(page.url()).pathname.split("/").pop());
}

/** Wait until the page's event stream is open. */
export async function waitLive(page) {
  await page.locator("#live", { hasText: "live" }).waitFor();
}

/** Mark the page so that a reload would be noticed. */
export async function markNoReload(page) {
  await page.evaluate(() => { window.__tabulaStayed = true; });
}

export async function assertNotReloaded(page) {
  assert.equal(await page.evaluate(() => window.__tabulaStayed === true), true, "the page was not reloaded");
}

/** Send the move form as it is, as the page does (no reload): fails with
 * the server's message if the move is refused, and returns once the live
 * stream has brought the page the changed game. */
export async function sendMove(page) {
  await waitLive(page);
  const before = Number(await page.getAttribute("#game", "data-version"));
  const answer = page.waitForResponse((r) => r.request().method() === "POST" && /\/games\/\d+\/move$/.test(r.url()));
  await page.click('#move-form button[value="move"]');
  const body = await (await answer).json().catch(() => null);
  if (!body || !body.ok) assert.fail(`move refused: ${JSON.stringify(body)}`);
  await page.waitForFunction((v) => Number(document.getElementById("game").getAttribute("data-version")) > v, before);
}

/** Type a move and send it. */
export async function move(page, text) {
  await page.fill("#move-text", text);
  await sendMove(page);
}

/** The screen position of the centre of the cell named `label`, from the
 * board's click layout and the picture's current transform. */
export async function cellOnScreen(page, label) {
  return page.evaluate((label) => {
    const box = document.getElementById("board");
    const map = JSON.parse(box.getAttribute("data-click"));
    const svg = box.querySelector("svg");
    let x, y;
    if (map.type === "field") {
      let gx, gy, m;
      if ((m = /^\((-?\d+),(-?\d+)\)$/.exec(label))) { gx = Number(m[1]); gy = Number(m[2]); }
      else {
        m = /^([a-z]+)(\d+)$/.exec(label);
        gx = 0;
        for (const ch of m[1]) gx = gx * 26 + (ch.charCodeAt(0) - 96);
        gx -= 1;
        gy = Number(m[2]) - 1;
      }
      x = map.x0 + (gx - map.left + 0.5) * map.cell;
      y = map.y0 + (map.top - gy + 0.5) * map.cell;
    } else if (map.type === "grid") {
      const m = /^([a-z]+)(\d+)$/.exec(label);
      let col = 0;
      for (const ch of m[1]) col = col * 26 + (ch.charCodeAt(0) - 96);
      col -= 1;
      const row = map.rows - Number(m[2]);
      x = map.x0 + (col + 0.5) * map.cell;
      y = map.y0 + (row + 0.5) * map.cell;
    } else {
      const i = Number(label) - 1;
      x = map.x0 + (i % map.per_row + 0.5) * map.cell;
      y = map.y0 + Math.floor(i / map.per_row) * map.row_height + map.cell / 2;
    }
    const p = svg.createSVGPoint();
    p.x = x;
    p.y = y;
    const s = p.matrixTransform(svg.getScreenCTM());
    return { x: s.x, y: s.y };
  }, label);
}

export async function clickCell(page, label) {
  // Bring the board into the window first: a click lands only on what is shown.
  const box = await page.locator("#board").boundingBox();
  const viewport = page.viewportSize();
  if (box && (box.y < 0 || box.y + box.height > viewport.height)) await page.locator("#board").scrollIntoViewIfNeeded();
  const { x, y } = await cellOnScreen(page, label);
  await page.mouse.click(x, y);
}

/** A small PNG of the page in docs/screenshots. */
export async function screenshot(page, name) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** The kinds the server offers. */
export async function kinds() {
  const r = await fetch(`${BASE}/api/v1/kinds`);
  const body = await r.json();
  return body.kinds.map((k) => k.kind);
}

/** A bearer token for `user`, as a program gets one: writes such as a
 * challenge must come from one of the players. */
export async function token(user, password) {
  const r = await fetch(`${BASE}/api/v1/tokens`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user, password, name: "browser tests" }),
  });
  const body = await r.json();
  assert.equal(r.status, 201, JSON.stringify(body));
  return body.token;
}

/** A command through the API, as a program would send it. */
export async function command(line, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(`${BASE}/api/v1/commands`, { method: "POST", headers, body: JSON.stringify({ line }) });
  return r.json();
}
