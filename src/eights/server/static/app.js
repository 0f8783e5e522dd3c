// The browser table: the lobby at /, a table at /t/CODE. Plain modules, no build step.

import { chooseLanguage, loadCatalog, t } from "./i18n.js";
import { installSprite } from "./cards.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showRecord } from "./review.js";

async function main() {
  installSprite();
  // The large four-colour deck, where this browser chose it (the table's settings).
  document.body.classList.toggle("deck-four", localStorage.getItem("eights.deck") === "four");
  const lang = chooseLanguage();
  const root = document.getElementById("app");
  try {
    await loadCatalog(lang);
  } catch (exc) {
    root.textContent = exc.message;
    return;
  }
  document.getElementById("brand-name").textContent = t("Crazy Eights");
  const langs = document.getElementById("langs");
  langs.setAttribute("aria-label", t("Language"));
  for (const button of langs.querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === lang));
    button.addEventListener("click", () => {
      localStorage.setItem("eights.lang", button.dataset.lang);
      const url = new URL(location.href);
      url.searchParams.delete("lang");
      location.replace(url);
    });
  }
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,32})\/?$/);
  const record = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,32})\/record\/?$/);
  if (record) await showRecord(root, record[1]);
  else if (match) await showTable(root, match[1]);
  else await showLobby(root);
  document.body.dataset.ready = "true";
}

main();
