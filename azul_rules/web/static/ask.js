// Ask the judge in words: a question box over the rule book (api/v1/ask). The answers
// show each rule's id, title and text and, where the book has one, a worked example with
// a link that opens it on the picture. Plain JavaScript, no build step.
// Its words are the catalogues' web.ask.page.* phrases, in the data block #ask-words; it
// follows the page's language (<html lang>), as play.js does.
"use strict";

(() => {
  const WORDS = JSON.parse(document.getElementById("ask-words").textContent);
  const SOURCE = "en";
  let lang = SOURCE;
  let last = null;            // the last question asked, asked again in a new language
  const t = (key, params = {}) => {
    const text = WORDS[lang]?.[key] ?? WORDS[SOURCE]?.[key] ?? key;
    return text.replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, name) => (name === undefined ? whole[0] : String(params[name] ?? "")));
  };

  // The element builder, shared with the other scripts (static/dom.js, loaded first).
  const { h } = window.azulDom;

  const panel = () => document.getElementById("question");
  const field = () => document.getElementById("question-text");
  const results = () => document.getElementById("question-answers");

  // The box: a form, so that Enter asks; its words in the page's language.
  const draw = () => {
    const typed = field()?.value ?? "";
    const form = h("form", { id: "question-form", class: "question-form", onsubmit: (event) => { event.preventDefault(); ask(field().value); } },
      h("label", { for: "question-text", text: t("label") }),
      h("div", { class: "question-row" },
        h("input", { id: "question-text", type: "search", name: "q", maxlength: "500", autocomplete: "off",
          placeholder: t("placeholder"), "aria-describedby": "question-hint", value: typed }),
        h("button", { type: "submit", class: "primary", id: "question-ask", text: t("button") })),
      h("p", { id: "question-hint", class: "hint", text: t("hint") }));
    const answers = results() ?? h("div", { id: "question-answers", role: "status", "aria-live": "polite", tabindex: "-1" });
    panel().replaceChildren(h("h2", { id: "question-title", text: t("title") }), form, answers);
    field().value = typed;
  };

  // A link of the API's (/?position=...) made relative to the page, wherever it is served.
  const local = (link) => (link.startsWith("/") ? `.${link}` : link);

  const answerItem = (answer) => h("li", { class: "question-answer", "data-rule": answer.rule },
    h("h3", {}, h("span", { class: "rule-id", text: answer.rule }), " ", answer.title,
      answer.ruling ? h("span", { class: "ruling", text: ` (${t("ruling")})` }) : null),
    h("p", { class: "rule-text", text: answer.text }),
    answer.example ? h("div", { class: "question-example" },
      h("p", {}, h("strong", { text: t("example") }), " ", answer.example),
      answer.link ? h("p", {}, h("a", { class: "try", href: local(answer.link), text: t("try") })) : null) : null);

  const show = (question, data) => {
    const box = results();
    const list = data.answers ?? [];
    const head = h("p", { class: "question-asked", text: t("answers", { q: question }) });
    box.replaceChildren(head, list.length
      ? h("ol", { class: "question-list" }, list.map(answerItem))
      : h("p", { class: "question-none", text: t("none") }));
    box.dataset.lang = lang;
    // The answer in view, on a phone too: the first rule at the top of the screen.
    (box.querySelector(".question-answer") ?? box).scrollIntoView({ block: "start" });
    box.focus({ preventScroll: true });
  };

  const fail = (text) => {
    results().replaceChildren(h("p", { class: "bad", role: "alert", text: t("failed", { reason: text }) }));
    results().scrollIntoView({ block: "start" });
  };

  const ask = async (question) => {
    const q = question.trim();
    if (!q) { field().focus(); return; }
    last = q;
    try {
      const response = await fetch(`api/v1/ask?q=${encodeURIComponent(q)}&lang=${encodeURIComponent(lang)}`);
      const data = await response.json();
      if (!response.ok) {
        const errors = (data.errors ?? []).map((e) => e.problem).join("; ");
        fail(errors || data.detail || `HTTP ${response.status}`);
        return;
      }
      show(q, data);
    } catch (error) {
      fail(String(error?.message ?? error));
    }
  };

  // The page's language is <html lang> (the page's own buttons set it): followed here,
  // the last question asked again in it.
  const follow = () => {
    const tag = document.documentElement.lang.replace("-", "_");
    const next = WORDS[tag] ? tag : WORDS[tag.split("_")[0]] ? tag.split("_")[0] : SOURCE;
    if (next === lang && panel().childElementCount) return;
    lang = next;
    draw();
    if (last && results().childElementCount) ask(last);
  };

  document.addEventListener("DOMContentLoaded", () => {
    if (!panel()) return;
    new MutationObserver(follow).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
    follow();
    panel().dataset.ready = "true";
  });
})();
