// The other pages in a real browser: the games list and challenge form,
// every game's page (a screenshot of each), a phone-sized window without
// sideways scrolling, zoom that keeps clicks on the right cell, and the
// command line and the API giving the same answers on the same database.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import {
  BASE, launch, newPage, uniqueUser, signUp, challenge, clickCell, screenshot, kinds, command, token,
} from "./lib.mjs";

const run = promisify(execFile);
const offered = await kinds();
// Pages shot by the tests that play these games.
const PLAYED = ["dna", "intervalo", "conway", "rtlife"];

async function twoUsers() {
  const a = uniqueUser("amy"), b = uniqueUser("ben");
  for (const u of [a, b]) {
    const r = await command(`signup ${u} pw-${u}`);
    assert.equal(r.ok, true, JSON.stringify(r));
  }
  return [a, b];
}

test("every game's page shows its board, on a desk and on a phone", async () => {
  const browser = await launch();
  try {
    const [a, b] = await twoUsers();
    const desk = await newPage(browser);
    const phone = await newPage(browser, { phone: true });
    for (const kind of offered) {
      const r = await command(`${kind} challenge ${a} ${b}`, await token(a, `pw-${a}`));
      assert.equal(r.ok, true, `${kind}: ${JSON.stringify(r)}`);
      const board = r.game.id;
      for (const page of [desk, phone]) {
        await page.goto(`/games/${board}`);
        await page.locator("#board svg").waitFor();
        await page.locator("#live", { hasText: "live" }).waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 1, `${kind}: the page scrolls sideways by ${overflow}px`);
      }
      if (!PLAYED.includes(kind)) await screenshot(desk, kind);
    }
    await desk.goto(`/?player=${a}`);
    await desk.locator("table.games").waitFor();
    assert.equal(await desk.locator("table.games tbody tr").count(), offered.length);
    await screenshot(desk, "games");
    assert.deepEqual(desk.scriptErrors, []);
    assert.deepEqual(phone.scriptErrors, []);
  } finally {
    await browser.close();
  }
});

test("the challenge form lists every option of the game", async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await signUp(page, uniqueUser("cat"), "pw-cat-1");
    const info = await (await fetch(`${BASE}/api/v1/kinds/dna`)).json();
    await page.goto("/challenge/dna");
    for (const o of info.kind.options) {
      assert.equal(await page.locator(`[name="opt_${o.name}"]`).count(), 1, `-${o.name}`);
    }
    await screenshot(page, "challenge-dna");
  } finally {
    await browser.close();
  }
});

test("zooming keeps a click on the cell under the pointer", async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const me = uniqueUser("dan");
    await signUp(page, me, "pw-dan-1");
    const [other] = await twoUsers();
    const board = await challenge(page, "intervalo", [me, other], { cells: 128 });
    const before = await page.getAttribute("#board svg", "viewBox");
    await page.click('[data-zoom="in"]');
    await page.click('[data-zoom="in"]');
    const after = await page.getAttribute("#board svg", "viewBox");
    assert.notEqual(after, before, "zoomed in");
    assert.ok(Number(after.split(" ")[2]) < Number(before.split(" ")[2]));
    // Cell 95 lies near the middle of the picture: still on screen.
    await clickCell(page, "95");
    assert.equal(await page.inputValue("#move-text"), "95");
    await page.click('[data-zoom="reset"]');
    assert.equal(await page.getAttribute("#board svg", "viewBox"), before);
    await clickCell(page, "100");
    assert.equal(await page.inputValue("#move-text"), "100");
    assert.ok(board > 0);
    assert.deepEqual(page.scriptErrors, []);
  } finally {
    await browser.close();
  }
});

test("the command line and the API answer alike on the same database", { skip: !process.env.TABULA_BIN && "TABULA_BIN not set" }, async () => {
  const [a, b] = await twoUsers();
  const made = await command(`dna challenge -manual -length=6 ${a} ${b}`, await token(a, `pw-${a}`));
  assert.equal(made.ok, true, JSON.stringify(made));
  const board = made.game.id;
  await command(`dna move ${board} ${a} pw-${a} AAACCC`);
  for (const line of ["list", "help dna", `dna show ${board}`, `dna history ${board}`, `dna games ${a} all`, `dna showas ${board} ${b} pw-${b}`]) {
    const api = await command(line);
    const { stdout } = await run(process.env.TABULA_BIN, ["--db", process.env.TABULA_DB, "--json", ...line.split(" ")]);
    assert.deepEqual(JSON.parse(stdout), api, line);
  }
});
