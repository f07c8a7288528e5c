// The colour theme before the first paint (a classic script in <head>, so the page never
// flashes the other theme): the player's choice (localStorage "wt.theme"), else the system's
// setting (prefers-color-scheme), followed as it changes. theme.js is the switch.
(function () {
  var root = document.documentElement;
  var query = window.matchMedia("(prefers-color-scheme: light)");
  var COLOURS = { dark: "#13111b", light: "#f4f2fa" };
  function saved() {
    try {
      var value = localStorage.getItem("wt.theme");
      return value === "light" || value === "dark" ? value : null;
    } catch (err) {
      return null;
    }
  }
  function apply() {
    var theme = saved() || (query.matches ? "light" : "dark");
    root.setAttribute("data-theme", theme);
    var meta = document.querySelector('meta[name="theme-color"]');
    if (meta) meta.setAttribute("content", COLOURS[theme]);
  }
  apply();
  query.addEventListener("change", apply);
  window.addEventListener("storage", apply); // another tab switched
  window.addEventListener("wt:theme", apply); // theme.js switched
})();
