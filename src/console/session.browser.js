// The admin token, kept in this tab only (sessionStorage), and which of sign-in or console shows.
import { $ } from "./dom.browser.js";

const TOKEN_KEY = "coordinator-admin-token";

export const token = () => sessionStorage.getItem(TOKEN_KEY);

export function keepToken(value) {
  sessionStorage.setItem(TOKEN_KEY, value);
}

export function showSignIn(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  $("console").hidden = true;
  $("sign-out").hidden = true;
  $("sign-in").hidden = false;
  $("sign-in-error").textContent = message ?? "";
  $("status").textContent = "";
}

export function showConsole() {
  $("sign-in").hidden = true;
  $("console").hidden = false;
  $("sign-out").hidden = false;
}
