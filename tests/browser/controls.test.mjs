// What a player does from a game's page whatever the turn, one player at a
// desk's width and the other on a phone: a draw offered by the player on
// move and accepted live by the other, a rematch, resigning after moving,
// a Rewrite goal and rule replaced, and a challenge waiting under "Your
// turn", counted in the navigation and the tab title, accepted on the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  launch, newPage, uniqueUser, signUp, challenge, waitLive, markNoReload, assertNotReloaded, move, screenshot,
} from "./lib.mjs";

/** Click a control of the page's control bar, accepting its question. */
async function control(page, value) {
  if (value === "resign") page.once("dialog", (d) => d.accept());
  const answer = page.waitForResponse((r) => r.request().method() === "POST" && /\/move$/.test(r.url()));
  await page.click(`#controls button[value="${value}"]`);
  const body = await (await answer).json();
  assert.equal(body.ok, true, JSON.stringify(body));
}

test("a draw offered by the player on move is accepted by the other; rematch; resign after moving", async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const bob = await newPage(browser, { phone: true });
    const annId = uniqueUser("lea"), bobId = uniqueUser("max");
    await signUp(ann, annId, "pw-lea-1");
    await signUp(bob, bobId, "pw-max-1");
    const board = await challenge(ann, "intervalo", [annId, bobId], { cells: 8 });
    await bob.goto(`/games/${board}`);
    await waitLive(ann);
    await waitLive(bob);
    await markNoReload(ann);
    await markNoReload(bob);
    // Intervalo moves are simultaneous: Ann chooses, then the form goes
    // away for her while the controls stay.
    await move(ann, "2");
    await ann.locator("#move-form").waitFor({ state: "hidden" });
    assert.ok(await ann.locator('#controls button[value="resign"]').isVisible(), "resign after moving");
    assert.ok(await ann.locator('#controls button[value="draw"]').isVisible(), "offer a draw after moving");
    // Bob, on move, offers a draw; Ann, not on move, answers it live.
    await control(bob, "draw");
    await ann.locator("#offer", { hasText: `${bobId} offers a draw.` }).waitFor();
    assert.ok(await bob.locator("#offer").isHidden(), "the one who offers does not answer");
    await screenshot(ann, "offer");
    await control(ann, "accept");
    await ann.locator("#status", { hasText: "Game drawn" }).waitFor();
    await bob.locator("#status", { hasText: "Game drawn" }).waitFor();
    await assertNotReloaded(ann);
    await assertNotReloaded(bob);
    assert.ok(await ann.locator("#controls").isHidden(), "no controls once over");
    // A rematch from the page: the same players, Bob first this time.
    await bob.locator("#rematch button").waitFor();
    await Promise.all([bob.waitForURL(/\/games\/\d+$/), bob.click("#rematch button")]);
    const rematch = Number(new URL(bob.url()).pathname.split("/").pop());
    assert.notEqual(rematch, board);
    await bob.locator("#players li").first().filter({ hasText: bobId }).waitFor();
    await ann.goto(`/games/${rematch}`);
    await waitLive(ann);
    await waitLive(bob);
    await markNoReload(ann);
    await move(bob, "3");
    // Bob resigns after moving, while Ann is still to choose.
    await control(bob, "resign");
    await ann.locator("#status", { hasText: `Game won by ${annId}` }).waitFor();
    await assertNotReloaded(ann);
    assert.deepEqual(ann.scriptErrors, []);
    assert.deepEqual(bob.scriptErrors, []);
  } finally {
    await browser.close();
  }
});

test("Rewrite: a secret goal and rule are replaced from the page until everyone has written one", async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser, { phone: true });
    const bob = await newPage(browser);
    const annId = uniqueUser("nia"), bobId = uniqueUser("oto");
    await signUp(ann, annId, "pw-nia-1");
    await signUp(bob, bobId, "pw-oto-1");
    const board = await challenge(bob, "rewrite", [annId, bobId]);
    await ann.goto(`/games/${board}`);
    await move(ann, "goal atc");
    await ann.locator("#move-label", { hasText: "you may replace it" }).waitFor();
    await move(ann, "goal tca");
    await ann.locator("#text-board", { hasText: "Your goal: tca" }).waitFor({ state: "attached" });
    await move(bob, "goal ggg");
    // The rules of round 1: Ann writes one, then another in its place.
    await ann.locator("#move-label", { hasText: "Your move" }).waitFor();
    await move(ann, "a=>t");
    await ann.locator("#move-label", { hasText: "you may replace it" }).waitFor();
    await move(ann, "c=>g");
    await ann.locator("#text-board", { hasText: "Your rule for round 1: c=>g" }).waitFor({ state: "attached" });
    await screenshot(ann, "rewrite-replace-phone");
    assert.deepEqual(ann.scriptErrors, []);
    assert.deepEqual(bob.scriptErrors, []);
  } finally {
    await browser.close();
  }
});

test("a challenge waiting for acceptance is under Your turn, counted, and accepted on its page", async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const bob = await newPage(browser, { phone: true });
    const annId = uniqueUser("pia"), bobId = uniqueUser("quin");
    await signUp(ann, annId, "pw-pia-1");
    await signUp(bob, bobId, "pw-quin-1");
    // Bob asks to accept challenges first, on his account page.
    await bob.goto("/account");
    await bob.check('#set-policy input[value="ask"]');
    await Promise.all([bob.waitForURL(/done=policy/), bob.click("#set-policy button")]);
    await bob.locator("#done", { hasText: "challenge policy is saved" }).waitFor();
    const board = await challenge(ann, "dna", [annId, bobId]);
    await bob.goto("/");
    await bob.locator("#your-turn a", { hasText: `#${board}` }).waitFor();
    await bob.locator("#your-turn", { hasText: "challenge: accept or reject" }).waitFor();
    assert.match(await bob.title(), /^\(1\) /);
    assert.equal(await bob.locator("#nav-count").textContent(), "1 waiting");
    await bob.goto(`/games/${board}`);
    await waitLive(bob);
    await Promise.all([bob.waitForEvent("load"), bob.click('form.answer button[value="accept"]')]);
    await bob.locator("form.answer").waitFor({ state: "detached" });
    await bob.goto("/");
    assert.ok(!(await bob.title()).startsWith("(1)"), "answered: no longer waiting");
    assert.deepEqual(ann.scriptErrors, []);
    assert.deepEqual(bob.scriptErrors, []);
  } finally {
    await browser.close();
  }
});
