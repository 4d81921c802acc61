// A tournament with a bot that fails: its page links every game's record,
// shows what the failed bot wrote, and names the bot's program without the
// server's file paths, its long command wrapped within a phone's window.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, newPage } from "./lib.mjs";

const run = promisify(execFile);

test("a tournament's page: games linked, a failed bot's log, no server paths", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tabula-failing-bot-"));
  const browser = await launch();
  try {
    const deep = join(dir, "a-rather-long-directory-name-for-bots", "and-another-one-below-it");
    mkdirSync(deep, { recursive: true });
    const script = join(deep, "crashes-at-once-with-a-long-name.sh");
    writeFileSync(script, "#!/bin/sh\necho 'the bot gave up: no strategy for this position' >&2\nexit 3\n");
    const command = `sh ${script} --with-a-long-option=and-its-value --another-one`;
    await run(process.env.TABULA_BIN, [
      "--db", process.env.TABULA_DB, "tournament", "--game", "intervalo", "--games-per-pair", "2", "--seed", "3",
      "--bot", "greedy", "--bot", command, "--option=-cells=8", "--threads", "1", "--quiet",
    ]).catch(() => null); // a failing bot may make the command's status non-zero
    for (const phone of [false, true]) {
      const page = await newPage(browser, { phone });
      await page.goto("/tournaments");
      const row = page.locator("table.tournaments tbody tr", { hasText: "crashes-at-once" }).first();
      await Promise.all([page.waitForURL(/\/tournaments\/\d+$/), row.locator("a").first().click()]);
      const html = await page.content();
      assert.ok(!html.includes(dir), "no server path on the page");
      await page.locator("#standings td.bot", { hasText: "crashes-at-once-with-a-long-name.sh" }).waitFor();
      // Every game's number links to its record.
      const links = await page.locator("table.tournament-games tbody tr td:first-child a").evaluateAll((as) => as.map((a) => a.href));
      assert.equal(links.length, 2);
      const record = await (await fetch(links[0])).json();
      assert.equal(record.ok, true, JSON.stringify(record));
      assert.equal(record.games.length, 1);
      // What became of the failed bot, and its error output, one click away.
      const log = page.locator("table.tournament-games details.bot-log").first();
      await log.locator("summary").click();
      const said = await log.locator("pre").textContent();
      assert.match(said, /crashes-at-once-with-a-long-name\.sh .*crashed/, said);
      assert.ok(!said.includes(dir), said);
      const overflow = await page.evaluate(() => {
        const wrap = document.querySelector("#standings").parentElement;
        return { page: document.documentElement.scrollWidth - window.innerWidth, table: wrap.scrollWidth - wrap.clientWidth };
      });
      assert.ok(overflow.page <= 1, `the page scrolls sideways by ${overflow.page}px`);
      if (!phone) assert.ok(overflow.table <= 1, `the standings scroll sideways by ${overflow.table}px at a desk`);
      assert.deepEqual(page.scriptErrors, []);
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
