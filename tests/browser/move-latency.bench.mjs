// A measurement, not a test (tests/browser/run runs it only when named:
// `scripts/bench-web`): a move on a game's page from the press of "Move"
// to the board drawn anew from the live stream, without a page load, over
// 20 moves of an Intervalo game in Chromium. Times are taken in the page
// (performance.now at the submit and when the new picture is in the
// board); the other player's choices go through the API. Prints the
// figures and, when $TABULA_BENCH_OUT names a file, writes them there as
// key=value lines for scripts/bench-report.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { launch, newPage, uniqueUser, signUp, waitLive, markNoReload, assertNotReloaded, clickCell, command, token } from "./lib.mjs";

const MOVES = 20;

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

test(`click to updated board, ${MOVES} moves`, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const me = uniqueUser("bench"), other = uniqueUser("benchb");
    await signUp(page, me, "pw-bench-1");
    const r0 = await command(`signup ${other} pw-${other}`);
    assert.equal(r0.ok, true, JSON.stringify(r0));
    const r = await command(`intervalo challenge ${me} ${other} -cells=64`, await token(me, "pw-bench-1"));
    assert.equal(r.ok, true, JSON.stringify(r));
    const board = r.game.id;
    await page.goto(`/games/${board}`);
    await waitLive(page);
    await markNoReload(page);
    await page.evaluate(() => {
      window.__samples = [];
      window.__t0 = null;
      // Capturing at the document: before the page's own submit handler.
      document.addEventListener("submit", () => { window.__t0 = performance.now(); }, true);
      new MutationObserver(() => {
        if (window.__t0 === null || !document.querySelector("#board svg")) return;
        window.__samples.push(performance.now() - window.__t0);
        window.__t0 = null;
      }).observe(document.getElementById("board"), { childList: true });
    });
    for (let turn = 1; turn <= MOVES; turn++) {
      await page.locator("#move-form:not([hidden])").waitFor();
      await clickCell(page, String(turn));
      assert.equal(await page.inputValue("#move-text"), String(turn));
      await page.click('#move-form button[value="move"]');
      await page.waitForFunction((n) => window.__samples.length >= n, turn);
      // The other player's choice completes the turn.
      const version = Number(await page.getAttribute("#game", "data-version"));
      const answer = await command(`intervalo move ${board} ${other} pw-${other} ${65 - turn}`);
      assert.equal(answer.ok, true, JSON.stringify(answer));
      await page.waitForFunction((v) => Number(document.getElementById("game").getAttribute("data-version")) > v, version);
    }
    await assertNotReloaded(page);
    const samples = await page.evaluate(() => window.__samples);
    const sorted = samples.slice().sort((a, b) => a - b);
    const figures = {
      date: new Date().toISOString().slice(0, 16) + "Z",
      moves: String(samples.length),
      median_ms: quantile(sorted, 0.5).toFixed(1),
      p90_ms: quantile(sorted, 0.9).toFixed(1),
      min_ms: sorted[0].toFixed(1),
      max_ms: sorted[sorted.length - 1].toFixed(1),
      cores: String(cpus().length),
    };
    const text = Object.entries(figures).map(([k, v]) => `${k}=${v}`).join("\n") + "\n";
    console.log(`samples (ms): ${samples.map((s) => s.toFixed(1)).join(" ")}`);
    console.log(text);
    if (process.env.TABULA_BENCH_OUT) writeFileSync(process.env.TABULA_BENCH_OUT, text);
    assert.deepEqual(page.scriptErrors, []);
  } finally {
    await browser.close();
  }
});
