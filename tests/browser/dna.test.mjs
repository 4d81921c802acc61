// Two users in two browsers: one challenges the other to DNA with -manual
// sequences, they play to the end, and each sees the other's moves appear
// without reloading. The other player's sequence is never on a page before
// every sequence is set.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  launch, newPage, signUp, challenge, waitLive, markNoReload, assertNotReloaded, move, screenshot,
} from "./lib.mjs";

const ANN_SEQUENCE = "AAACCCTTT";
const BOB_SEQUENCE = "AAAGGTCCA";

test("DNA: challenge, hidden set-up, live moves, to the end", async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const bob = await newPage(browser, { phone: true });
    const annId = "ann", bobId = "bob";
    await signUp(ann, annId, "pw-ann-1");
    await signUp(bob, bobId, "pw-bob-1");

    const board = await challenge(ann, "dna", [annId, bobId], { length: 9, manual: true });
    await bob.goto(`/games/${board}`);
    await waitLive(bob);
    await markNoReload(bob);
    await waitLive(ann);

    // Ann sets her sequence; Bob sees that she did, but not what it is.
    await move(ann, ANN_SEQUENCE);
    await bob.locator("#moves", { hasText: `${annId} sets a sequence` }).waitFor();
    await assertNotReloaded(bob);
    assert.ok(!(await bob.content()).includes(ANN_SEQUENCE), "ann's sequence is not on bob's page");
    const bobView = await bob.evaluate(async (b) => (await fetch(`/api/v1/games/${b}`)).text(), board);
    assert.ok(!bobView.includes(ANN_SEQUENCE), "nor in what bob's browser may fetch");
    assert.ok((await ann.content()).includes(ANN_SEQUENCE), "ann sees her own");
    await waitLive(ann);
    await markNoReload(ann);

    // Bob sets his; now both are shown to both, live on Ann's page.
    await move(bob, BOB_SEQUENCE);
    await ann.locator("#text-board", { hasText: `${bobId} (9): ${BOB_SEQUENCE}` }).waitFor({ state: "attached" });
    await assertNotReloaded(ann);
    assert.ok((await bob.content()).includes(ANN_SEQUENCE), "revealed to bob too");
    await screenshot(bob, "dna-phone");

    // Nominations, each appearing live on the other page.
    await waitLive(bob);
    await markNoReload(bob);
    await ann.locator("#move-form:not([hidden])").waitFor();
    await move(ann, "AAA");
    await bob.locator("#moves", { hasText: `${annId}: AAA` }).waitFor();
    await bob.locator("#move-form:not([hidden])").waitFor();
    await assertNotReloaded(bob);

    await waitLive(ann);
    await markNoReload(ann);
    await move(bob, "GGT");
    await ann.locator("#moves", { hasText: `${bobId}: GGT` }).waitFor();
    await assertNotReloaded(ann);

    await waitLive(bob);
    await markNoReload(bob);
    await move(ann, "CCC");
    await bob.locator("#moves", { hasText: `${annId}: CCC` }).waitFor();
    await assertNotReloaded(bob);

    // Bob's last letters: his own nomination empties his sequence.
    await waitLive(ann);
    await markNoReload(ann);
    await move(bob, "CCA");
    await ann.locator("#status", { hasText: `Game won by ${annId}` }).waitFor();
    await assertNotReloaded(ann);
    await bob.locator("#status", { hasText: `Game won by ${annId}` }).waitFor();
    assert.ok(await ann.locator("#move-form").isHidden(), "no move form once over");

    // Step back through the moves without reloading.
    await ann.click('#replay [data-at="0"]');
    await ann.locator("#position", { hasText: "after move 0 of" }).waitFor();
    await ann.click('#replay [data-at="next"]');
    await ann.locator("#position", { hasText: "after move 1 of" }).waitFor();
    await ann.click('#replay [data-at="latest"]');
    await ann.locator("#position", { hasText: "(latest)" }).waitFor();
    await assertNotReloaded(ann);
    await screenshot(ann, "dna");
    assert.deepEqual(ann.scriptErrors, []);
    assert.deepEqual(bob.scriptErrors, []);
  } finally {
    await browser.close();
  }
});
