// The element builder shared by the page's scripts (app.js, table.js, play.js, ask.js,
// scorekeeper.js), which run after this one: h(tag, props, ...children) makes an element,
// props naming its listeners (onclick...), its text, class, data-key (key), value and
// checked state, any other an attribute; children are elements or strings, and null,
// undefined and false are left out.  button(label, onclick, props) is a plain button.
"use strict";

(() => {
  const h = (tag, props = {}, ...children) => {
    const el = document.createElement(tag);
    for (const [name, value] of Object.entries(props)) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
      else if (name === "text") el.textContent = value;
      else if (name === "class") el.className = value;
      else if (name === "key") el.dataset.key = value;
      else if (name === "value") el.value = value;
      else if (name === "checked") el.checked = value;
      else el.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined && child !== false) {
        el.append(typeof child === "string" ? document.createTextNode(child) : child);
      }
    }
    return el;
  };
  const button = (label, onclick, props = {}) => h("button", { type: "button", onclick, ...props }, label);
  window.azulDom = Object.freeze({ h, button });
})();
