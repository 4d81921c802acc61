// The games list follows the games without a reload and reads as cards on
// a phone; the tab title counts the games waiting for the reader, "(N)",
// and keeps the count right after the game page's live updates.
import { test } from "node:test";
import assert from "node:assert/strict";
import { launch, newPage, uniqueUser, signUp, waitLive, markNoReload, assertNotReloaded, move, command, token } from "./lib.mjs";

test("the games list is live and readable on a phone; the title counts the games waiting", async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser, { phone: true });
    const annId = uniqueUser("rae"), bobId = uniqueUser("sol");
    await signUp(ann, annId, "pw-rae-1");
    const made = await command(`signup ${bobId} pw-${bobId}`);
    assert.equal(made.ok, true, JSON.stringify(made));
    await ann.goto("/");
    await ann.locator("#your-turn", { hasText: "No game is waiting for you." }).waitFor();
    assert.ok(!(await ann.title()).startsWith("("), await ann.title());
    await markNoReload(ann);

    // Bob challenges Ann: the game comes into her list, counted, live.
    const r = await command(`intervalo challenge ${bobId} ${annId} -cells=8`, await token(bobId, `pw-${bobId}`));
    assert.equal(r.ok, true, JSON.stringify(r));
    const board = r.game.id;
    await ann.locator("#your-turn a", { hasText: `#${board}` }).waitFor({ timeout: 10000 });
    await ann.waitForFunction(() => document.title.startsWith("(1) "));
    assert.equal(await ann.locator("#nav-count").textContent(), "1 waiting");
    await assertNotReloaded(ann);

    // On a phone the list is a column of cards: nothing sideways, every
    // row within the window, its text at 12 px or more.
    const layout = await ann.evaluate(() => {
      const rows = [...document.querySelectorAll("table.games tbody tr")];
      return {
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        rows: rows.map((tr) => {
          const box = tr.getBoundingClientRect();
          const sizes = [...tr.querySelectorAll("td")].map((td) => parseFloat(getComputedStyle(td).fontSize));
          return { right: box.right, width: box.width, smallest: Math.min(...sizes), display: getComputedStyle(tr).display };
        }),
      };
    });
    assert.ok(layout.overflow <= 1, `the page scrolls sideways by ${layout.overflow}px`);
    assert.ok(layout.rows.length >= 2, JSON.stringify(layout));
    for (const row of layout.rows) {
      assert.equal(row.display, "grid", "a card, not a table row");
      assert.ok(row.right <= 390 && row.smallest >= 12, JSON.stringify(row));
    }

    // On the game page the title keeps the count through live updates.
    await ann.goto(`/games/${board}`);
    await waitLive(ann);
    await markNoReload(ann);
    assert.match(await ann.title(), /^\(1\) Your turn · /);
    await move(ann, "2");
    await ann.waitForFunction(() => !document.title.startsWith("("), null, { timeout: 10000 });
    assert.ok(!(await ann.title()).includes("Your turn"), await ann.title());
    await ann.locator("#nav-count").waitFor({ state: "hidden" });
    const answer = await command(`intervalo move ${board} ${bobId} pw-${bobId} 7`);
    assert.equal(answer.ok, true, JSON.stringify(answer));
    await ann.waitForFunction(() => document.title.startsWith("(1) Your turn · "), null, { timeout: 10000 });
    assert.equal(await ann.locator("#nav-count").textContent(), "1 waiting");
    await assertNotReloaded(ann);
    assert.deepEqual(ann.scriptErrors, []);
  } finally {
    await browser.close();
  }
});
