// Boards readable and playable on a phone: every game's board at 390 px
// with cells of at least 24 px (WCAG 2.5.8's touch target) and text of at
// least 12 px, measured from the page; and every cell of a default
// Intervalo strip hit by a click at its centre, on a desk and on a phone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { launch, newPage, uniqueUser, signUp, waitLive, kinds, command, token, clickCell, sendMove, screenshot } from "./lib.mjs";

const offered = await kinds();

async function twoUsers(prefix) {
  const a = uniqueUser(`${prefix}a`), b = uniqueUser(`${prefix}b`);
  for (const u of [a, b]) {
    const r = await command(`signup ${u} pw-${u}`);
    assert.equal(r.ok, true, JSON.stringify(r));
  }
  return [a, b];
}

/** The board's sizes as drawn now: a cell's side and the smallest letter,
 * in CSS pixels, from the picture's screen transform; and where the board
 * box ends on the right. */
function measure(page) {
  return page.evaluate(() => {
    const box = document.getElementById("board");
    const svg = box.querySelector("svg");
    const scale = svg.getScreenCTM().a;
    let map = null;
    try { map = JSON.parse(box.getAttribute("data-click")); } catch { map = null; }
    let smallest = Infinity, smallestText = "";
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim()) continue;
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < smallest) { smallest = px; smallestText = t.textContent; }
    }
    return {
      cell: map && map.cell ? map.cell * scale : null,
      smallest,
      smallestText,
      right: box.getBoundingClientRect().right,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    };
  });
}

// Moves that give each board something to show, sent through the API.
const MOVES = {
  intervalo: (board, a, b) => [`intervalo move ${board} ${a} pw-${a} 3`, `intervalo move ${board} ${b} pw-${b} 60`],
  conway: (board, a, b) => [`conway move ${board} ${a} pw-${a} c3`, `conway move ${board} ${b} pw-${b} h8,h9`],
  rtlife: (board, a, b) => [`rtlife move ${board} ${a} pw-${a} place ai18,aj18,ak18`],
  dna: () => [],
  rewrite: () => [],
};

test("every game's board on a phone: cells of 24 px and text of 12 px at least", async () => {
  const browser = await launch();
  try {
    const [a, b] = await twoUsers("tap");
    const phone = await newPage(browser, { phone: true });
    await signUp(phone, uniqueUser("tapc"), "pw-tap-c");
    for (const kind of offered) {
      const options = kind === "rtlife" ? " -start_cells=3" : "";
      const r = await command(`${kind} challenge ${a} ${b}${options}`, await token(a, `pw-${a}`));
      assert.equal(r.ok, true, `${kind}: ${JSON.stringify(r)}`);
      const board = r.game.id;
      const lines = (MOVES[kind] || (() => []))(board, a, b);
      for (const [step, line] of [null, ...lines].entries()) {
        if (line) {
          const answer = await command(line);
          assert.equal(answer.ok, true, `${kind}: ${line}: ${JSON.stringify(answer)}`);
        }
        await phone.goto(`/games/${board}`);
        await phone.locator("#board svg").waitFor();
        const m = await measure(phone);
        const at = `${kind} after ${step} moves`;
        if (m.cell !== null) assert.ok(m.cell >= 24, `${at}: cells of ${m.cell.toFixed(1)} px`);
        assert.ok(m.smallest >= 12, `${at}: text of ${m.smallest.toFixed(1)} px (${JSON.stringify(m.smallestText)})`);
        assert.ok(m.right <= 390 && m.overflow <= 1, `${at}: the board reaches ${m.right} px, the page ${m.overflow} px past the window`);
      }
      // The DNA test shoots its own phone picture.
      if (kind !== "dna") {
        await phone.locator("#board").scrollIntoViewIfNeeded();
        await screenshot(phone, `${kind}-phone`);
      }
    }
    assert.deepEqual(phone.scriptErrors, []);
  } finally {
    await browser.close();
  }
});

test("Intervalo: every cell of the default strip takes a click at its centre, on a desk and a phone", async () => {
  const browser = await launch();
  try {
    for (const phone of [false, true]) {
      const page = await newPage(browser, { phone });
      const me = uniqueUser("strip");
      await signUp(page, me, "pw-strip-1");
      const [other] = await twoUsers("stro");
      const r = await command(`intervalo challenge ${me} ${other}`, await token(me, "pw-strip-1"));
      assert.equal(r.ok, true, JSON.stringify(r));
      await page.goto(`/games/${r.game.id}`);
      await waitLive(page);
      await page.locator("#move-form:not([hidden])").waitFor();
      const count = await page.locator("#board [data-cell]").count();
      assert.equal(count, 64);
      for (let n = 1; n <= 64; n++) {
        const cell = page.locator(`#board [data-cell="${n}"]`);
        await cell.scrollIntoViewIfNeeded();
        const box = await cell.boundingBox();
        const x = box.x + box.width / 2, y = box.y + box.height / 2;
        const hit = await page.evaluate(([x, y]) => {
          const el = document.elementFromPoint(x, y);
          const c = el && el.closest("[data-cell]");
          return c ? c.getAttribute("data-cell") : el ? el.outerHTML.slice(0, 80) : "nothing";
        }, [x, y]);
        assert.equal(hit, String(n), `${phone ? "phone" : "desk"}: the centre of cell ${n} hits ${hit}`);
        await page.mouse.click(x, y);
        assert.equal(await page.inputValue("#move-text"), String(n), `${phone ? "phone" : "desk"}: a click on cell ${n}`);
        if (phone) assert.ok(box.width >= 24 && box.height >= 24, `cell ${n} is ${box.width}x${box.height} px`);
      }
      assert.deepEqual(page.scriptErrors, []);
    }
  } finally {
    await browser.close();
  }
});

test("Real-Time Life on the unbounded plane: an empty field takes clicks, and so does the plane beyond the cells; a countdown to the tick", async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const me = uniqueUser("plane");
    await signUp(page, me, "pw-plane-1");
    const [other] = await twoUsers("plano");
    const r = await command(`rtlife challenge ${me} ${other} -edges=unbounded -start_cells=3`, await token(me, "pw-plane-1"));
    assert.equal(r.ok, true, JSON.stringify(r));
    const board = r.game.id;
    await page.goto(`/games/${board}`);
    await waitLive(page);
    await page.locator("#move-form:not([hidden])").waitFor();
    await page.locator("#countdown", { hasText: /Next tick (in \d+ s|now)/ }).waitFor();
    for (const p of ["(0,0)", "(1,0)", "(-1,0)"]) await clickCell(page, p);
    assert.equal(await page.inputValue("#move-text"), "place (0,0),(1,0),(-1,0)");
    await sendMove(page);
    // The other player places away from the first cells, still by clicking.
    const bob = await newPage(browser);
    await bob.goto("/login");
    await bob.fill('input[name="user"]', other);
    await bob.fill('input[name="password"]', `pw-${other}`);
    await Promise.all([bob.waitForURL((u) => !u.pathname.startsWith("/login")), bob.click('button[type="submit"].primary')]);
    await bob.goto(`/games/${board}`);
    await waitLive(bob);
    for (const p of ["(4,3)", "(4,4)", "(4,5)"]) await clickCell(bob, p);
    assert.equal(await bob.inputValue("#move-text"), "place (4,3),(4,4),(4,5)");
    await sendMove(bob);
    // What that move changed is outlined.
    await bob.waitForFunction(() => document.querySelectorAll("#board #change-marks rect.change").length >= 1);
    assert.deepEqual(page.scriptErrors, []);
    assert.deepEqual(bob.scriptErrors, []);
  } finally {
    await browser.close();
  }
});
