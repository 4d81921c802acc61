// The pages in the reader's language: a Finnish browser sees Rewrite's
// page in Finnish (Merkkikorvauspeli, in its community's words), a Spanish
// browser sees Intervalo's in Spanish, while an English player of the same
// board sees it in English; the errors the pages make, the dates and the
// page script's own words follow; a visitor's switch (?lang=) is
// remembered.
import { test } from "node:test";
import assert from "node:assert/strict";
import { launch, newPage, uniqueUser, signUp, challenge, screenshot } from "./lib.mjs";

/** The text of the game's rules, as the page shows them. */
async function rules(page) {
  return page.locator("pre.rules").textContent();
}

test("a Finnish and an English player see one Rewrite board each in their language", async () => {
  const browser = await launch();
  try {
    const fi = await newPage(browser, { language: "fi-FI,fi;q=0.9,en;q=0.5" });
    const en = await newPage(browser, { language: "en-GB,en;q=0.9" });
    const aino = uniqueUser("aino"), ned = uniqueUser("ned");
    await signUp(fi, aino, "pw-aino-1");
    await signUp(en, ned, "pw-ned-1");
    const board = await challenge(fi, "rewrite", [aino, ned]);

    await fi.goto(`/games/${board}`);
    assert.equal(await fi.getAttribute("html", "lang"), "fi");
    assert.match(await fi.locator("h1").textContent(), /^Merkkikorvauspeli lauta \d+$/);
    const text = await rules(fi);
    for (const word of ["merkkijono", "sääntö", "tavoite"]) assert.ok(text.includes(word), `the rules lack ${word}`);
    assert.match(await fi.locator(".move-help pre").textContent(), /valitse salainen tavoitteesi/);
    assert.equal(await fi.locator("nav a[href='/']").first().textContent(), "Pelit");
    assert.match(await fi.locator("#move-label").textContent(), /^(Liity peliin: ensimmäinen siirtosi|Siirtosi)$/);
    // The page script's words: the live mark, and an error it shows in place.
    await fi.locator("#live:not([hidden])").waitFor();
    assert.equal(await fi.locator("#live").textContent(), "suorana");
    await fi.click('#move-form button[value="move"]');
    await fi.locator("#move-error", { hasText: "Kirjoita ensin siirto." }).waitFor();
    await screenshot(fi, "rewrite-fi");

    // The same board in English for the English player.
    await en.goto(`/games/${board}`);
    assert.equal(await en.getAttribute("html", "lang"), "en");
    assert.match(await en.locator("h1").textContent(), /^Rewrite board \d+$/);
    assert.match(await rules(en), /Every player secretly chooses a goal/);

    // The games list: Finnish words and dates.
    await fi.goto(`/?player=${aino}`);
    assert.equal(await fi.locator("table.games th").first().textContent(), "Lauta");
    assert.match(await fi.locator("table.games td.when").first().textContent(), /^\d{1,2}\.\d{1,2}\.\d{4} klo \d{1,2}\.\d\d UTC$/);
    // (The refused move's answer, a 400, is the one error the console saw.)
    assert.deepEqual(fi.scriptErrors.filter((e) => !/status of 400/.test(e)), []);
    assert.deepEqual(en.scriptErrors, []);
  } finally {
    await browser.close();
  }
});

test("a Spanish visitor sees Intervalo's page in Spanish", async () => {
  const browser = await launch();
  try {
    const es = await newPage(browser, { language: "es-ES,es;q=0.9" });
    const other = await newPage(browser);
    const lola = uniqueUser("lola"), pepe = uniqueUser("pepe");
    await signUp(es, lola, "pw-lola-1");
    await signUp(other, pepe, "pw-pepe-1");
    const board = await challenge(es, "intervalo", [lola, pepe]);

    await es.goto(`/games/${board}`);
    assert.equal(await es.getAttribute("html", "lang"), "es");
    assert.match(await es.locator("h1").textContent(), /^Intervalo tablero \d+$/);
    const text = await rules(es);
    for (const word of ["casilla", "ficha", "tira"]) assert.ok(text.includes(word), `the rules lack ${word}`);
    assert.equal(await es.locator("nav a[href='/']").first().textContent(), "Partidas");
    assert.equal(await es.locator(".moves-section h2").textContent(), "Jugadas");
    await es.locator("#live:not([hidden])").waitFor();
    assert.equal(await es.locator("#live").textContent(), "en directo");
    await screenshot(es, "intervalo-es");

    // An error page in Spanish.
    assert.deepEqual(es.scriptErrors, []);
    await es.goto("/games/abc");
    assert.equal(await es.locator("h1").textContent(), "No encontrado");
    assert.equal(await es.locator("p.error").textContent(), 'No hay ningún tablero "abc".');
  } finally {
    await browser.close();
  }
});

test("a visitor's switch of language is remembered", async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser, { language: "en-US,en;q=0.9" });
    await page.goto("/challenge");
    assert.equal(await page.locator("h1").textContent(), "Start a game");
    await page.click("footer .languages a[hreflang='fi']");
    await page.waitForURL(/\?lang=fi$/);
    assert.equal(await page.locator("h1").textContent(), "Aloita peli");
    await page.goto("/tournaments");
    assert.equal(await page.getAttribute("html", "lang"), "fi");
    assert.equal(await page.locator("h1").textContent(), "Turnaukset");
    await page.goto("/tournaments?lang=en");
    assert.equal(await page.locator("h1").textContent(), "Tournaments");
  } finally {
    await browser.close();
  }
});
