// The sign-up form's time zone: the browser's own, when the server knows it and the person has
// not chosen one yet (the server's default is only a guess).
(function () {
  "use strict";
  var select = document.getElementById("id_time_zone");
  if (!select || select.dataset.chosen) return;
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  var form = select.form;
  if (form && form.querySelector(".errorlist")) return; // a posted form keeps its choice
  for (var i = 0; i < select.options.length; i++) {
    if (select.options[i].value === zone) {
      select.value = zone;
      return;
    }
  }
})();
