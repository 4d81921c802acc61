// The pages in the reader's language: a Finnish browser sees Rewrite's
// page in Finnish (Merkkikorvauspeli, in its community's words), a Spanish
// browser sees Intervalo's in Spanish, while an English player of the same
// board sees it in English; the errors the pages make, the dates and the
// page script's own words follow; a visitor's switch (?lang=) is
// remembered; a signed-in user's own setting holds whatever the browser
// sends, on every device.
import { test } from "node:test";
import assert from "node:assert/strict";
import { launch, newPage, uniqueUser, signUp, challenge, screenshot, token, command } from "./lib.mjs";

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

/** Log in through the form. */
async function logIn(page, user, password) {
  await page.goto("/login");
  await page.fill('input[name="user"]', user);
  await page.fill('input[name="password"]', password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/login")), page.click('button[type="submit"].primary')]);
  await page.locator(".who", { hasText: user }).waitFor();
}

test("a user's own language holds whatever their browser sends", async () => {
  const browser = await launch();
  try {
    const aila = uniqueUser("aila"), ned = uniqueUser("ned");
    const first = await newPage(browser, { language: "en-GB,en;q=0.9" });
    await signUp(first, aila, "pw-aila-1");
    await signUp(await newPage(browser), ned, "pw-ned-1");
    const ailaToken = await token(aila, "pw-aila-1");
    const ok = (answer) => assert.equal(answer.ok, true, JSON.stringify(answer));
    ok(await command(`language ${aila} pw-aila-1 fi`));
    // A DNA board where aila is to move once both sequences are in.
    const made = await command(`dna challenge -manual -length=6 ${aila} ${ned}`, ailaToken);
    ok(made);
    const board = made.game.id;
    ok(await command(`dna move ${board} ${aila} pw-aila-1 AAACCC`));
    ok(await command(`dna move ${board} ${ned} pw-ned-1 AAAGGG`));

    // Another device, a browser asking for English: Finnish pages.
    const en = await newPage(browser, { language: "en-US,en;q=0.9" });
    await logIn(en, aila, "pw-aila-1");
    assert.equal(await en.getAttribute("html", "lang"), "fi");
    await en.goto("/challenge");
    assert.equal(await en.locator("h1").textContent(), "Aloita peli");
    await en.goto(`/games/${board}`);
    assert.match(await en.locator("h1").textContent(), /^DNA lauta \d+$/);
    await en.locator("#live:not([hidden])").waitFor();
    // The status, live too, in her language and addressed to her.
    assert.deepEqual(await en.locator("#status p").allTextContents(), ["On sinun vuorosi."]);
    assert.match(await en.locator("#text-board").textContent(), new RegExp(`^Vuorossa on ${aila}\\.`));

    // The account page's setting: Spanish from now on.
    await en.goto("/account");
    assert.equal(await en.locator("#set-language input[value='fi']").isChecked(), true);
    await en.check("#set-language input[value='es']");
    await Promise.all([en.waitForURL(/\/account\?done=language$/), en.click("#set-language button[type='submit']")]);
    assert.equal(await en.getAttribute("html", "lang"), "es");
    assert.equal(await en.locator("#done").textContent(), "Tu idioma está guardado.");
    await en.goto("/challenge");
    assert.equal(await en.locator("h1").textContent(), "Empieza una partida");
    await en.goto(`/games/${board}`);
    await en.locator("#live:not([hidden])").waitFor();
    assert.deepEqual(await en.locator("#status p").allTextContents(), ["Es tu turno."]);
    // The first browser, still logged in, follows the setting too.
    await first.goto("/challenge");
    assert.equal(await first.locator("h1").textContent(), "Empieza una partida");

    // The footer's switch changes the setting, so every device follows.
    await first.click("footer .languages a[hreflang='fi']");
    await first.waitForURL(/\?lang=fi$/);
    assert.equal(await first.locator("h1").textContent(), "Aloita peli");
    await en.goto("/tournaments");
    assert.equal(await en.getAttribute("html", "lang"), "fi");

    // A visitor still follows their browser.
    const visitor = await newPage(browser, { language: "en-US,en;q=0.9" });
    await visitor.goto("/challenge");
    assert.equal(await visitor.locator("h1").textContent(), "Start a game");
    const finn = await newPage(browser, { language: "fi-FI,fi;q=0.9" });
    await finn.goto("/challenge");
    assert.equal(await finn.locator("h1").textContent(), "Aloita peli");
    assert.deepEqual(en.scriptErrors, []);
    assert.deepEqual(first.scriptErrors, []);
  } finally {
    await browser.close();
  }
});
