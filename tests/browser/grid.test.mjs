// Clicking on boards: a Conway game where both players place pieces by
// clicking points of the grid (when Conway is on offer), and an Intervalo
// game played by clicking cells of the strip. Moves appear live on the
// other player's page.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  launch, newPage, signUp, challenge, waitLive, markNoReload, assertNotReloaded, clickCell,
  sendMove, screenshot, kinds,
} from "./lib.mjs";

const offered = await kinds();

test("Intervalo: cells chosen by clicking the strip, revealed live", async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const bob = await newPage(browser);
    const annId = "cora", bobId = "dave";
    await signUp(ann, annId, "pw-ann-1");
    await signUp(bob, bobId, "pw-bob-1");
    const board = await challenge(ann, "intervalo", [annId, bobId], { cells: 4 });
    await bob.goto(`/games/${board}`);
    await waitLive(bob);
    await markNoReload(bob);

    await clickCell(ann, "1");
    assert.equal(await ann.inputValue("#move-text"), "1");
    await clickCell(ann, "2");
    assert.equal(await ann.inputValue("#move-text"), "2", "a strip move is one cell: the last click counts");
    await clickCell(ann, "1");
    await sendMove(ann);
    await ann.locator("#status", { hasText: `Waiting for ${bobId}` }).waitFor();
    // Bob learns that Ann has chosen, not what.
    await bob.locator("#status", { hasText: `Waiting for ${bobId}` }).waitFor();
    await assertNotReloaded(bob);
    assert.ok(!(await bob.locator("#text-board").textContent()).includes("chose cell"));

    await waitLive(ann);
    await markNoReload(ann);
    await clickCell(bob, "4");
    assert.equal(await bob.inputValue("#move-text"), "4");
    await sendMove(bob);
    await ann.locator("#moves", { hasText: "Turn 1" }).waitFor();
    await assertNotReloaded(ann);

    await waitLive(bob);
    await markNoReload(bob);
    await clickCell(ann, "2");
    await sendMove(ann);
    await waitLive(ann);
    await markNoReload(ann);
    await bob.locator("#move-form:not([hidden])").waitFor();
    await clickCell(bob, "3");
    await sendMove(bob);
    await ann.locator("#moves", { hasText: "Turn 2" }).waitFor();
    await ann.locator("#status", { hasText: /Game (won|drawn)/ }).waitFor();
    await assertNotReloaded(ann);
    await screenshot(ann, "intervalo");
    assert.deepEqual(ann.scriptErrors, []);
    assert.deepEqual(bob.scriptErrors, []);
  } finally {
    await browser.close();
  }
});

test("Conway: pieces placed by clicking the grid, seen live", { skip: !offered.includes("conway") && "Conway is not on offer yet" }, async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const bob = await newPage(browser);
    const annId = "eve", bobId = "finn";
    await signUp(ann, annId, "pw-ann-1");
    await signUp(bob, bobId, "pw-bob-1");
    const board = await challenge(ann, "conway", [annId, bobId], { size: 10, place: 4, max_turns: 4 });
    await bob.goto(`/games/${board}`);
    await waitLive(bob);
    await markNoReload(bob);

    // Move 1 places one piece; clicking a point twice takes it back.
    await clickCell(ann, "b2");
    await clickCell(ann, "c3");
    assert.equal(await ann.inputValue("#move-text"), "c3", "one piece allowed: the newest click stays");
    await clickCell(ann, "c3");
    assert.equal(await ann.inputValue("#move-text"), "");
    await clickCell(ann, "b2");
    await sendMove(ann);
    await bob.locator("#moves", { hasText: "b2" }).waitFor();
    await assertNotReloaded(bob);

    await waitLive(ann);
    await markNoReload(ann);
    await bob.locator("#move-form:not([hidden])").waitFor();
    await clickCell(bob, "h8");
    await clickCell(bob, "h9");
    assert.equal(await bob.inputValue("#move-text"), "h8,h9");
    await sendMove(bob);
    await ann.locator("#moves", { hasText: "h8" }).waitFor();
    await assertNotReloaded(ann);

    await waitLive(bob);
    await markNoReload(bob);
    await ann.locator("#move-form:not([hidden])").waitFor();
    for (const p of ["b3", "c2", "c3"]) await clickCell(ann, p);
    await sendMove(ann);
    await bob.locator("#moves", { hasText: "c3" }).waitFor();
    await assertNotReloaded(bob);

    await waitLive(ann);
    await markNoReload(ann);
    // Generations start with move 4, the last: two 2x2 blocks survive it.
    await bob.locator("#move-form:not([hidden])").waitFor();
    for (const p of ["g8", "g9"]) await clickCell(bob, p);
    assert.equal(await bob.inputValue("#move-text"), "g8,g9");
    await sendMove(bob);
    await ann.locator("#status", { hasText: /Game (won|drawn)/ }).waitFor();
    await assertNotReloaded(ann);
    await screenshot(ann, "conway");
    assert.deepEqual(ann.scriptErrors, []);
    assert.deepEqual(bob.scriptErrors, []);
  } finally {
    await browser.close();
  }
});
