// axe-core on every page, at a desk's width and a phone's: no serious or
// critical violation. Game pages are checked in every state a player
// meets: a challenge waiting for an answer, on move, waiting for the other,
// an offer to answer, replaying an earlier move, finished; for every game.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { launch, newPage, uniqueUser, signUp, waitLive, kinds, command, token } from "./lib.mjs";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
// Evaluated through the browser's debugging protocol: the pages' Content
// Security Policy allows no inline script, rightly.
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const offered = await kinds();

/** The serious and critical violations axe finds on the page as it is,
 * and those of the rules named below. */
async function violations(page) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
    }));
  });
  // And, whatever axe's impact, the faults once found here.
  const named = ["empty-table-header", "aria-allowed-attr", "aria-prohibited-attr", "color-contrast"];
  return found.filter((v) => v.impact === "serious" || v.impact === "critical" || named.includes(v.id));
}

/** Check the page at `path` (or as it is now when `path` is null). */
async function check(page, path, what) {
  if (path !== null) {
    await page.goto(path);
    await page.waitForLoadState("domcontentloaded");
  }
  if (await page.locator("#game").count()) await page.locator("#board svg").waitFor();
  const bad = await violations(page);
  assert.deepEqual(bad, [], `${what || path}: ${JSON.stringify(bad, null, 1)}`);
}

test("axe finds no serious or critical violation on any page", async () => {
  const browser = await launch();
  try {
    for (const phone of [false, true]) {
      const width = phone ? "phone" : "desk";
      const guest = await newPage(browser, { phone });
      for (const path of ["/", "/login", "/signup", "/challenge", "/tournaments", "/games/999999", "/no-such-page"]) {
        await check(guest, path, `${width} (logged out) ${path}`);
      }

      const ann = await newPage(browser, { phone });
      const bob = await newPage(browser, { phone });
      const cat = await newPage(browser, { phone });
      const annId = uniqueUser("axa"), bobId = uniqueUser("axb"), catId = uniqueUser("axc");
      await signUp(ann, annId, `pw-${annId}`);
      await signUp(bob, bobId, `pw-${bobId}`);
      await signUp(cat, catId, `pw-${catId}`);
      // Cat is asked before a challenge starts.
      const policy = await command(`policy ${catId} pw-${catId} ask`);
      assert.equal(policy.ok, true, JSON.stringify(policy));
      // A new user's home page (with its hint), the account page, lists.
      for (const path of ["/", "/account", `/users/${annId}`, "/challenge", `/?player=${annId}`]) {
        await check(ann, path, `${width} ${path}`);
      }
      for (const kind of offered) await check(ann, `/challenge/${kind}`, `${width} /challenge/${kind}`);

      const annToken = await token(annId, `pw-${annId}`);
      for (const kind of offered) {
        // A challenge waiting for Cat's answer, seen by both.
        const proposed = await command(`${kind} challenge ${annId} ${catId}`, annToken);
        assert.equal(proposed.ok, true, `${kind}: ${JSON.stringify(proposed)}`);
        await check(cat, `/games/${proposed.game.id}`, `${width} ${kind}: a challenge to answer`);
        await check(ann, `/games/${proposed.game.id}`, `${width} ${kind}: a challenge sent`);
        const options = kind === "rtlife" ? " -start_cells=3" : kind === "intervalo" ? " -cells=6" : "";
        const r = await command(`${kind} challenge ${annId} ${bobId}${options}`, annToken);
        assert.equal(r.ok, true, `${kind}: ${JSON.stringify(r)}`);
        const board = r.game.id;
        await check(ann, `/games/${board}`, `${width} ${kind}: the first page`);
        await check(bob, `/games/${board}`, `${width} ${kind}: the other player's first page`);
        await check(guest, `/games/${board}`, `${width} ${kind}: an onlooker's page`);
      }

      // Intervalo through its states: on move, waiting, an offer to
      // answer, replaying, finished.
      const r = await command(`intervalo challenge ${annId} ${bobId} -cells=4`, annToken);
      const board = r.game.id;
      await command(`intervalo move ${board} ${annId} pw-${annId} 1`);
      await check(ann, `/games/${board}`, `${width} intervalo: waiting for the other`);
      await check(bob, `/games/${board}`, `${width} intervalo: on move`);
      await command(`intervalo move ${board} ${bobId} pw-${bobId} 4`);
      await command(`intervalo move ${board} ${annId} pw-${annId} draw`);
      await check(bob, `/games/${board}`, `${width} intervalo: a draw offer to answer`);
      await waitLive(bob);
      await check(bob, `/games/${board}?at=0`, `${width} intervalo: replaying move 0`);
      await bob.keyboard.press("ArrowRight");
      await bob.locator("#position", { hasText: "after move 1" }).waitFor();
      await check(bob, null, `${width} intervalo: replaying move 1 of 2`);
      await command(`intervalo move ${board} ${bobId} pw-${bobId} resign`);
      await check(ann, `/games/${board}`, `${width} intervalo: finished`);
      await check(ann, `/games/${board}?at=1`, `${width} intervalo: finished, replaying`);
      await check(ann, "/", `${width} the games list with games`);
      await check(cat, "/", `${width} the games list with challenges to answer`);
    }
  } finally {
    await browser.close();
  }
});

test("axe finds no serious or critical violation on a tournament's page", async () => {
  await run(process.env.TABULA_BIN, [
    "--db", process.env.TABULA_DB, "tournament", "--game", "intervalo", "--games-per-pair", "2", "--seed", "5",
    "--bot", "random", "--bot", "greedy", "--option=-cells=8", "--threads", "1", "--quiet",
  ]);
  const browser = await launch();
  try {
    for (const phone of [false, true]) {
      const page = await newPage(browser, { phone });
      await check(page, "/tournaments", "/tournaments");
      const link = page.locator("table.tournaments tbody tr:first-child a").first();
      const href = await link.getAttribute("href");
      await check(page, href, `${phone ? "phone" : "desk"} ${href}`);
    }
  } finally {
    await browser.close();
  }
});
