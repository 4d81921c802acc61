// Every setting of the account page changed through the page's own forms,
// each checked where it takes effect: the page read again from the server,
// the API (tokens, closed accounts), a challenge from another player
// (policy, game limit) and logging in (password, closing the account).
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, launch, newPage, uniqueUser, signUp, token, command } from "./lib.mjs";

/** Send the form `#id` and wait for the confirmation `done` names. */
async function save(page, id, done, text) {
  await Promise.all([page.waitForURL(new RegExp(`/account\\?done=${done}$`)), page.click(`#${id} button[type="submit"]`)]);
  await page.locator("#done", { hasText: text }).waitFor();
}

/** Send the form `#id` and wait for its error, shown in the form. */
async function refused(page, id, error, text) {
  await Promise.all([page.waitForEvent("load"), page.click(`#${id} button[type="submit"]`)]);
  await page.locator(`#${id} #error-${error}`, { hasText: text }).waitFor();
}

/** The account page read again from the server. */
async function reread(page) {
  await page.goto("/account");
  // (The count of games waiting for the user may come first.)
  assert.match(await page.title(), /^(\(\d+\) )?Account · Tabula$/);
}

/** Who `bearer` acts for, or the status of the refusal. */
async function me(bearer) {
  const r = await fetch(`${BASE}/api/v1/me`, { headers: { authorization: `Bearer ${bearer}` } });
  return r.status === 200 ? (await r.json()).user : r.status;
}

async function logIn(page, user, password) {
  await page.goto("/login");
  await page.fill('input[name="user"]', user);
  await page.fill('input[name="password"]', password);
  await Promise.all([page.waitForEvent("load"), page.click('button[type="submit"].primary')]);
}

async function logOut(page) {
  await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.click('form[action="/logout"] button')]);
}

test("every account setting is changed from the account page", async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser, { phone: true });
    const other = await newPage(browser);
    const id = uniqueUser("vera"), otherId = uniqueUser("walt");
    await signUp(page, id, "pw-vera-1");
    await signUp(other, otherId, "pw-walt-1");
    const challenger = await token(otherId, "pw-walt-1");
    await reread(page);

    // Notifications: the other choice than the one shown.
    const wasOn = await page.isChecked('#set-notify input[value="on"]');
    await page.check(`#set-notify input[value="${wasOn ? "off" : "on"}"]`);
    await save(page, "set-notify", "notify", "notification setting is saved");
    await reread(page);
    assert.equal(await page.isChecked('#set-notify input[value="on"]'), !wasOn, "notifications changed");

    // Vacation: a week away, then back.
    await page.fill("#vacation-days", "7");
    await save(page, "set-vacation", "vacation", "vacation is saved");
    await reread(page);
    assert.equal(await page.inputValue("#vacation-days"), "7");
    await page.locator("#set-vacation", { hasText: "On vacation until" }).waitFor();
    await page.fill("#vacation-days", "");
    await save(page, "set-vacation", "vacation", "vacation is saved");
    await reread(page);
    assert.equal(await page.inputValue("#vacation-days"), "");
    await page.locator("#set-vacation", { hasText: "Not on vacation." }).waitFor();

    // Challenge policy: a challenge naming this account now waits for it.
    await page.check('#set-policy input[value="ask"]');
    await save(page, "set-policy", "policy", "challenge policy is saved");
    await reread(page);
    assert.ok(await page.isChecked('#set-policy input[value="ask"]'));
    const first = await command(`dna challenge ${otherId} ${id}`, challenger);
    assert.equal(first.ok, true, JSON.stringify(first));
    const games = await (await fetch(`${BASE}/api/v1/games?player=${id}`)).json();
    assert.deepEqual(games.games.map((g) => g.status), ["proposed"], JSON.stringify(games));

    // Game limit: one running game (the waiting challenge) is enough.
    await page.fill("#game-limit", "1");
    await save(page, "set-limit", "limit", "game limit is saved");
    await reread(page);
    assert.equal(await page.inputValue("#game-limit"), "1");
    const second = await command(`dna challenge ${otherId} ${id}`, challenger);
    assert.equal(second.ok, false, JSON.stringify(second));
    assert.match(JSON.stringify(second), /accepts no more \(limit 1\)/);
    await page.fill("#game-limit", "");
    await save(page, "set-limit", "limit", "game limit is saved");
    const third = await command(`dna challenge ${otherId} ${id}`, challenger);
    assert.equal(third.ok, true, JSON.stringify(third));

    // Addresses: refused with a wrong password and unchanged, then changed.
    await page.fill('#set-emails input[name="emails"]', "vera@example.org");
    await page.fill('#set-emails input[name="password"]', "not-the-password");
    await refused(page, "set-emails", "emails", /./);
    await reread(page);
    assert.equal(await page.inputValue('#set-emails input[name="emails"]'), "");
    await page.fill('#set-emails input[name="emails"]', "vera@example.org vera.home@example.net");
    await page.fill('#set-emails input[name="password"]', "pw-vera-1");
    await save(page, "set-emails", "emails", "addresses are changed");
    await reread(page);
    assert.equal(await page.inputValue('#set-emails input[name="emails"]'), "vera@example.org vera.home@example.net");

    // API tokens: one made and shown once, working, then revoked; another
    // kept to see the password change end it.
    await page.fill('form[action="/account/tokens"] input[name="name"]', "page token");
    await page.fill('form[action="/account/tokens"] input[name="password"]', "pw-vera-1");
    await Promise.all([page.waitForEvent("load"), page.click('form[action="/account/tokens"] button')]);
    const made = await page.locator("#new-token").textContent();
    assert.equal(await me(made), id, "the new token acts for its owner");
    await reread(page);
    assert.equal(await page.locator("#new-token").count(), 0, "a token is shown only once");
    const row = page.locator("tr", { hasText: "page token" });
    await Promise.all([page.waitForEvent("load"), row.locator("button", { hasText: "Revoke" }).click()]);
    await page.locator("tr", { hasText: "page token" }).filter({ hasText: "revoked" }).waitFor();
    assert.equal(await me(made), 401, "a revoked token no longer works");
    const kept = await token(id, "pw-vera-1");
    assert.equal(await me(kept), id);

    // Password: two new ones that differ are refused; then changed, this
    // session going on, the old password and every token ended.
    await page.fill('#set-password input[name="password"]', "pw-vera-1");
    await page.fill('#set-password input[name="new_password"]', "pw-vera-2");
    await page.fill('#set-password input[name="new_password2"]', "pw-vera-3");
    await refused(page, "set-password", "password", "The two new passwords differ.");
    await page.fill('#set-password input[name="password"]', "pw-vera-1");
    await page.fill('#set-password input[name="new_password"]', "pw-vera-2");
    await page.fill('#set-password input[name="new_password2"]', "pw-vera-2");
    await save(page, "set-password", "password", "Your password is changed.");
    await page.locator(".who", { hasText: id }).waitFor();
    assert.equal(await me(kept), 401, "the password change ends every token");
    await logOut(page);
    await logIn(page, id, "pw-vera-1");
    await page.locator(".error", { hasText: "Wrong user id or password." }).waitFor();
    await logIn(page, id, "pw-vera-2");
    await page.locator(".who", { hasText: id }).waitFor();

    // Closing the account: not without the box ticked, then for good.
    await reread(page);
    await page.fill('#set-close input[name="password"]', "pw-vera-2");
    page.once("dialog", (d) => d.accept());
    await refused(page, "set-close", "close", "Tick the box");
    await page.fill('#set-close input[name="password"]', "pw-vera-2");
    await page.check('#set-close input[name="confirm"]');
    let asked = "";
    page.once("dialog", (d) => { asked = d.message(); d.accept(); });
    await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.click('#set-close button[type="submit"]')]);
    assert.equal(asked, "Close your account for good?");
    assert.equal(await page.locator(".who").count(), 0, "logged out");
    const profile = await (await fetch(`${BASE}/api/v1/users/${id}`)).json();
    assert.equal(profile.user.signed_off, true, JSON.stringify(profile));
    await logIn(page, id, "pw-vera-2");
    await page.locator(".error").waitFor();
    assert.equal(await page.locator(".who").count(), 0, "a closed account cannot log in");
    // The refused forms and logins answer 4xx, which Chromium logs; nothing else may be.
    const unexpected = page.scriptErrors.filter((e) => !/^Failed to load resource: .* status of 40[01] /.test(e));
    assert.deepEqual(unexpected, []);
    assert.equal(page.scriptErrors.length, 5, "five refusals: addresses, password, login, close, login");
    assert.deepEqual(other.scriptErrors, []);
  } finally {
    await browser.close();
  }
});
