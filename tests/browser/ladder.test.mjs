// A game's ladder: reached from a game's page, the bot account marked as a
// bot there and on the ladder, and readable on a phone (nothing sideways
// but the table's own scroll box).
import { test } from "node:test";
import assert from "node:assert/strict";
import { launch, newPage, uniqueUser, command, token } from "./lib.mjs";

test("a game's ladder is linked from its page, marks bots and fits a phone", async () => {
  const browser = await launch();
  try {
    const ann = uniqueUser("lad"), bot = uniqueUser("ldb");
    for (const u of [ann, bot]) {
      const made = await command(`signup ${u} pw-${u}`);
      assert.equal(made.ok, true, JSON.stringify(made));
    }
    const on = await command(`bot on ${bot} pw-${bot}`);
    assert.equal(on.ok, true, JSON.stringify(on));
    // A finished game between them: the bot resigns at once.
    const annToken = await token(ann, `pw-${ann}`);
    const r = await command(`conway challenge ${ann} ${bot} -size=5`, annToken);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual(r.game.bots, [bot]);
    const board = r.game.id;
    const resigned = await command(`conway move ${board} ${bot} - resign`, await token(bot, `pw-${bot}`));
    assert.equal(resigned.ok, true, JSON.stringify(resigned));

    const page = await newPage(browser, { phone: true });
    await page.goto(`/games/${board}`);
    await page.locator(`#players li[data-player="${bot}"] .badge`, { hasText: "bot" }).waitFor();
    await page.locator("a", { hasText: "Conway ladder" }).click();
    await page.waitForURL(/\/ladder\/conway$/);
    await page.locator("h1", { hasText: "Conway ladder" }).waitFor();
    const row = page.locator(`#ladder tr[data-user="${bot}"]`);
    await row.locator(".badge", { hasText: "bot" }).waitFor();
    const annRow = page.locator(`#ladder tr[data-user="${ann}"]`);
    const annRating = Number(await annRow.locator("td").nth(2).textContent());
    const botRating = Number(await row.locator("td").nth(2).textContent());
    assert.ok(annRating > 1500 && botRating < 1500, `${annRating} ${botRating}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
  } finally {
    await browser.close();
  }
});
