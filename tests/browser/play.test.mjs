// Playing in the browser beyond two people taking turns: a game against a
// bot picked on the challenge form, played to the end; Real-Time Life
// cells placed by clicking the field and seen live by the other player;
// chat lines appearing live; a tournament's page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  launch, newPage, uniqueUser, signUp, waitLive, markNoReload, assertNotReloaded, clickCell, sendMove,
  screenshot, command, token,
} from "./lib.mjs";

const run = promisify(execFile);

test("a user challenges a bot on the form and plays Intervalo to the end", async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const me = uniqueUser("gail");
    await signUp(page, me, "pw-gail-1");
    await page.goto("/challenge/intervalo");
    // Nobody else named: the bot alone plays against the challenger.
    await page.fill('input[name="players"]', "");
    await page.selectOption("#bot", "bot:greedy");
    await page.fill('[name="opt_cells"]', "10");
    await Promise.all([page.waitForURL(/\/games\/\d+$/), page.click('form.challenge button[type="submit"]')]);
    const board = Number(new URL(page.url()).pathname.split("/").pop());
    await page.locator("#players", { hasText: "bot:greedy" }).waitFor();
    for (let turn = 0; turn < 12; turn++) {
      const over = await page.locator("#status", { hasText: /Game (won|drawn)/ }).count();
      if (over) break;
      await page.locator("#move-form:not([hidden])").waitFor();
      // The first free cell of the strip, from the page's own view.
      const cell = await page.evaluate(async (board) => {
        const r = await fetch(`/api/v1/games/${board}`, { credentials: "same-origin" });
        const body = await r.json();
        return body.game.view.strip.indexOf(".") + 1;
      }, board);
      await clickCell(page, String(cell));
      assert.equal(await page.inputValue("#move-text"), String(cell));
      await sendMove(page);
    }
    await page.locator("#status", { hasText: /Game (won|drawn)/ }).waitFor();
    // The bot's choices are in the move list, made as soon as it could.
    await page.locator("#moves", { hasText: "bot:greedy" }).waitFor();
    assert.equal(await page.locator("#move-form").isHidden(), true);
    await screenshot(page, "intervalo-bot");
    assert.deepEqual(page.scriptErrors, []);
  } finally {
    await browser.close();
  }
});

test("Real-Time Life: cells placed by clicking the field, seen live by the other player", async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const bob = await newPage(browser);
    const annId = uniqueUser("hana"), bobId = uniqueUser("ivan");
    await signUp(ann, annId, "pw-hana-1");
    await signUp(bob, bobId, "pw-ivan-1");
    // The default field, 72 by 36: big enough to need zoom.
    const r = await command(`rtlife challenge ${annId} ${bobId} -start_cells=3`, await token(annId, "pw-hana-1"));
    assert.equal(r.ok, true, JSON.stringify(r));
    const board = r.game.id;
    await ann.goto(`/games/${board}`);
    await bob.goto(`/games/${board}`);
    await waitLive(ann);
    await waitLive(bob);
    await markNoReload(bob);
    // No turns: both may move now.
    await ann.locator("#move-form:not([hidden])").waitFor();
    await bob.locator("#move-form:not([hidden])").waitFor();

    // Zoom in on the middle; clicks still land on the right points.
    await ann.click('[data-zoom="in"]');
    await ann.click('[data-zoom="in"]');
    for (const p of ["ai18", "aj18", "ak18"]) await clickCell(ann, p);
    assert.equal(await ann.inputValue("#move-text"), "place ai18,aj18,ak18");
    await clickCell(ann, "ak18");
    assert.equal(await ann.inputValue("#move-text"), "place ai18,aj18", "a second click takes a point back");
    await clickCell(ann, "ak18");
    await sendMove(ann);
    await waitLive(ann);
    await markNoReload(ann);

    // Bob sees Ann's three cells appear without reloading.
    const annColour = "#0072b2";
    await bob.waitForFunction((c) => document.querySelectorAll(`#board svg rect[fill="${c}"]`).length >= 2, annColour);
    await assertNotReloaded(bob);

    for (const p of ["ao20", "ao21", "ao22"]) await clickCell(bob, p);
    assert.equal(await bob.inputValue("#move-text"), "place ao20,ao21,ao22");
    await sendMove(bob);
    const bobColour = "#d55e00";
    await ann.waitForFunction((c) => document.querySelectorAll(`#board svg rect[fill="${c}"]`).length >= 2, bobColour);
    await assertNotReloaded(ann);

    // After placing, clicks pair a cell with where it goes.
    await clickCell(ann, "aj18");
    await clickCell(ann, "aj15");
    assert.equal(await ann.inputValue("#move-text"), "move aj18-aj15");
    await ann.click('[data-zoom="reset"]');
    await screenshot(ann, "rtlife");
    assert.deepEqual(ann.scriptErrors, []);
    assert.deepEqual(bob.scriptErrors, []);
  } finally {
    await browser.close();
  }
});

test("a chat line appears live for the other player", async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const bob = await newPage(browser, { phone: true });
    const annId = uniqueUser("jo"), bobId = uniqueUser("kim");
    await signUp(ann, annId, "pw-jo-1");
    await signUp(bob, bobId, "pw-kim-1");
    const r = await command(`dna challenge ${annId} ${bobId}`, await token(annId, "pw-jo-1"));
    assert.equal(r.ok, true, JSON.stringify(r));
    const board = r.game.id;
    await ann.goto(`/games/${board}`);
    await bob.goto(`/games/${board}`);
    await waitLive(bob);
    await markNoReload(bob);
    await waitLive(ann);
    await markNoReload(ann);
    await ann.fill("#chat-text", "Good luck <and> have fun");
    await ann.click('#chat-form button[type="submit"]');
    await ann.locator("#chat-lines", { hasText: "Good luck <and> have fun" }).waitFor();
    await bob.locator("#chat-lines li", { hasText: "Good luck <and> have fun" }).waitFor();
    await assertNotReloaded(bob);
    await assertNotReloaded(ann);
    assert.equal(await ann.inputValue("#chat-text"), "", "the field is cleared once sent");
    assert.equal(await bob.locator("#chat-lines .empty").count(), 0);
    // And back.
    await bob.fill("#chat-text", "thanks!");
    await bob.click('#chat-form button[type="submit"]');
    await ann.locator("#chat-lines li", { hasText: "thanks!" }).waitFor();
    await assertNotReloaded(ann);
    assert.equal(await ann.locator("#chat-lines li").count(), 2);
    const overflow = await bob.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `the phone page scrolls sideways by ${overflow}px`);
    assert.deepEqual(ann.scriptErrors, []);
    assert.deepEqual(bob.scriptErrors, []);
  } finally {
    await browser.close();
  }
});

test("a tournament's page shows its standings, matrix and charts", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tabula-tournament-"));
  const browser = await launch();
  try {
    const json = join(dir, "results.json");
    await run(process.env.TABULA_BIN, [
      "--db", process.env.TABULA_DB, "tournament", "--game", "intervalo", "--games-per-pair", "6", "--seed", "11",
      "--bot", "random", "--bot", "greedy", "--bot", "center", "--option=-cells=16", "--threads", "1", "--quiet",
      "--json-file", json,
    ]);
    const report = JSON.parse(readFileSync(json, "utf8"));
    const desk = await newPage(browser);
    await desk.goto("/tournaments");
    await desk.locator("table.tournaments").waitFor();
    await Promise.all([desk.waitForURL(/\/tournaments\/\d+$/), desk.click("table.tournaments tbody tr:first-child a")]);
    for (const [rank, bot] of report.bots.entries()) {
      const row = desk.locator(`#standings tr[data-bot="${bot.name}"] td`);
      const cells = await row.allTextContents();
      assert.deepEqual(
        cells.slice(0, 6).map((c) => c.trim()),
        [String(rank + 1), bot.name, String(bot.games), String(bot.wins), String(bot.losses), String(bot.draws)],
      );
      assert.equal(cells[8].trim(), String(Math.round(bot.rating)));
    }
    assert.equal(await desk.locator("#matrix tbody tr").count(), report.bots.length);
    assert.ok(await desk.locator("#rating-chart svg rect").count() >= report.bots.length);
    assert.ok(await desk.locator("#win-chart svg circle").count() === report.bots.length);
    await screenshot(desk, "tournament");
    const phone = await newPage(browser, { phone: true });
    await phone.goto(desk.url());
    await phone.locator("#standings").waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `the phone page scrolls sideways by ${overflow}px`);
    await screenshot(phone, "tournament-phone");
    assert.deepEqual(desk.scriptErrors, []);
    assert.deepEqual(phone.scriptErrors, []);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
