// Replaying a game: quick arrow-key presses step one move each, none
// skipped; every move of the list names its player (Conway included), and
// what the shown move changed is outlined on the board.
import { test } from "node:test";
import assert from "node:assert/strict";
import { launch, newPage, uniqueUser, kinds, command, token } from "./lib.mjs";

const offered = await kinds();

async function twoUsers(prefix) {
  const a = uniqueUser(`${prefix}a`), b = uniqueUser(`${prefix}b`);
  for (const u of [a, b]) {
    const r = await command(`signup ${u} pw-${u}`);
    assert.equal(r.ok, true, JSON.stringify(r));
  }
  return [a, b];
}

test("quick arrow-key presses step through the replay one move each", async () => {
  const browser = await launch();
  try {
    const [a, b] = await twoUsers("key");
    const r = await command(`intervalo challenge ${a} ${b} -cells=12`, await token(a, `pw-${a}`));
    assert.equal(r.ok, true, JSON.stringify(r));
    const board = r.game.id;
    for (const [who, cell] of [[a, 1], [b, 12], [a, 2], [b, 11], [a, 3], [b, 10]]) {
      const m = await command(`intervalo move ${board} ${who} pw-${who} ${cell}`);
      assert.equal(m.ok, true, JSON.stringify(m));
    }
    for (const phone of [false, true]) {
      const page = await newPage(browser, { phone });
      await page.goto(`/games/${board}?at=0`);
      await page.locator("#position", { hasText: "after move 0 of 6" }).waitFor();
      await page.locator("#live", { hasText: "live" }).waitFor();
      await page.locator("h1").click();
      // Three presses with no wait between them: three moves on.
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.locator("#position", { hasText: "after move 3 of 6" }).waitFor();
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      await page.locator("#position", { hasText: "after move 1 of 6" }).waitFor();
      // And the board is the one of that move: the address says so too.
      assert.match(page.url(), /\?at=1$/);
      // The page reads one past position at a time, so the server's limit
      // on replays prepared at once for one reader never refuses one (a 429
      // would be in the browser's log).
      assert.deepEqual(page.scriptErrors, []);
    }
  } finally {
    await browser.close();
  }
});

test("every move in the list names its player; the last move's changes are outlined", { skip: !offered.includes("conway") && "Conway is not on offer" }, async () => {
  const browser = await launch();
  try {
    const [a, b] = await twoUsers("who");
    const r = await command(`conway challenge ${a} ${b} -size=10 -place=4 -max_turns=4`, await token(a, `pw-${a}`));
    assert.equal(r.ok, true, JSON.stringify(r));
    const board = r.game.id;
    for (const [who, text] of [[a, "b2"], [b, "h8,h9"], [a, "b3,c2,c3"]]) {
      const m = await command(`conway move ${board} ${who} pw-${who} ${text}`);
      assert.equal(m.ok, true, JSON.stringify(m));
    }
    const page = await newPage(browser);
    await page.goto(`/games/${board}`);
    const rows = await page.locator("#moves li[data-number]").evaluateAll((lis) =>
      lis.map((li) => ({ who: (li.querySelector(".who") || {}).textContent || "", text: li.textContent.trim() })));
    assert.equal(rows.length, 3, JSON.stringify(rows));
    assert.deepEqual(rows.map((r) => r.who), [a, b, a], JSON.stringify(rows));
    // What the last move changed is outlined: Ann's three new pieces; one
    // step back, Bob's two.
    await page.waitForFunction(() => document.querySelectorAll("#board #change-marks rect.change").length === 3);
    await page.locator("h1").click();
    await page.keyboard.press("ArrowLeft");
    await page.locator("#position", { hasText: "after move 2 of 3" }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll("#board #change-marks rect.change").length === 2);
    assert.deepEqual(page.scriptErrors, []);
  } finally {
    await browser.close();
  }
});
