// The table page's entry form: its fields read and set whether they are chips (radios) or
// selects, only the fields the chosen contract uses shown (and posted), the tricks near the
// contract's target offered first, and the form moved on to the next deal, which the server names
// (in a save's answer, or in the rotation the page came with for use offline: scoring.table).
// Used by static/js/table.js and the table-*.js scripts it comes with.
(function () {
  "use strict";

  function isNewHandForm(form) { return form && form.dataset.mode === "new"; }

  function field(form, name) { return form.querySelector("[name=" + name + "]"); }

  // A field's value, text and setting, whether it is a group of buttons (radios) or a select/box.
  function valueOf(form, name) {
    var found = "";
    form.querySelectorAll("[name=" + name + "]").forEach(function (input) {
      if (input.disabled || found) return;
      if (input.type === "radio") {
        if (input.checked) found = input.value;
      } else {
        found = input.value;
      }
    });
    return found;
  }

  function textOf(form, name) {
    var radio = form.querySelector("input[name=" + name + "]:checked:not(:disabled)");
    if (radio) {
      var chip = radio.closest(".chip");
      return (chip.getAttribute("title") || chip.textContent).trim();
    }
    var input = field(form, name);
    if (!input || input.disabled || !input.value) return "";
    return input.tagName === "SELECT" ? input.options[input.selectedIndex].text : input.value;
  }

  function setValue(form, name, value) {
    var radios = Array.from(form.querySelectorAll("input[type=radio][name=" + name + "]"));
    if (!radios.length) {
      var input = field(form, name);
      if (input) input.value = value;
      return;
    }
    radios.forEach(function (radio) { radio.checked = false; });
    var matching = radios.filter(function (radio) { return radio.value === value; });
    var chosen = matching.filter(function (radio) { return !radio.disabled; })[0] || matching[0];
    if (chosen) chosen.checked = true;
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  // Show only what the chosen contract uses. A field (or a single button, say "Made" for a
  // misère) says in data-show-for which contracts it is for; whatever is hidden is disabled too,
  // so it is not sent (the server refuses, say, a partner sent with a solo).
  function showFieldsFor(form) {
    var value = checkedValue(form, "contract") || "none";
    form.querySelectorAll("[data-show-for]").forEach(function (slot) {
      slot.hidden = slot.dataset.showFor.split(" ").indexOf(value) === -1;
    });
    form.querySelectorAll("input, select, textarea").forEach(function (input) {
      if (input.type === "hidden") return;
      input.disabled = !!input.closest("[hidden]");
    });
    tricksFor(form, value);
  }

  function checkedValue(form, name) {
    var chosen = form.querySelector("input[name=" + name + "]:checked");
    if (chosen) return chosen.value;
    var select = form.querySelector("select[name=" + name + "]");
    return select ? select.value : "";
  }

  // The tricks a contract's declarer is likely to take, around its target, as buttons; the others
  // one tap away ("Other tricks"). A contract won or lost outright shows "Made" and "Failed"
  // instead, with "Made" chosen for a new hand until the scorer says otherwise.
  function tricksFor(form, contract) {
    var group = form.querySelector("[data-tricks]");
    var chip = form.querySelector("input[name=contract][value='" + contract + "']");
    if (!group) return;
    var target = chip && chip.dataset.target !== undefined ? parseInt(chip.dataset.target, 10) : NaN;
    var numbered = group.querySelectorAll(".chip:not(.made):not(.failed) input");
    var far = 0;
    numbered.forEach(function (input) {
      var label = input.closest(".chip");
      var away = isNaN(target) ? 0 : Math.abs(parseInt(input.value, 10) - target);
      var isFar = away > 3 && !input.checked;
      label.classList.toggle("far", isFar);
      if (isFar && !label.hidden) far += 1;
    });
    var more = group.querySelector("[data-all-tricks]");
    if (more) more.hidden = far === 0 || group.classList.contains("all-tricks");
    var made = group.querySelector(".chip.made:not([hidden]) input");
    var anyChosen = group.querySelector("input:checked:not(:disabled)");
    if (made && !anyChosen && isNewHandForm(form)) {
      made.checked = true;
    }
  }

  function formFields(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) { pairs.push([name, String(value)]); });
    return pairs;
  }

  function typed(form) {
    return !!(form && valueOf(form, "contract"));
  }

  function describe(form) {
    var text = textOf(form, "contract");
    var who = [textOf(form, "declarer"), textOf(form, "partner")].filter(Boolean).join(" & ");
    var played = ["all_passed", "misdeal"].indexOf(valueOf(form, "contract")) < 0;
    if (who && played) text += " by " + who;
    var tricks = textOf(form, "tricks");
    if (tricks && played) text += /^[0-9]+$/.test(tricks) ? ", " + tricks + " tricks" : ", " + tricks.toLowerCase();
    return text;
  }

  function missing(form) {
    var contract = valueOf(form, "contract");
    if (!contract) return "Choose the contract (or All passed).";
    if (contract === "misdeal") return "";
    if (contract === "all_passed") {
      return field(form, "last_trick_by") && !valueOf(form, "last_trick_by") ? "Who took the last trick?" : "";
    }
    if (!valueOf(form, "declarer")) return "Choose who declared.";
    if (contract === "prop_cop" && field(form, "partner") && !valueOf(form, "partner")) {
      return "Prop & Cop needs a partner.";
    }
    if (valueOf(form, "tricks") === "" && !valueOf(form, "penalty")) {
      return "Choose the tricks the declaring side won (0 to 13).";
    }
    return "";
  }

  function rotationPlan() {
    var planEl = document.getElementById("entry-plan");
    return planEl ? JSON.parse(planEl.textContent) : null;
  }

  // The deal after hand `number`, dealt by `dealer` with `contract`: looked up in the rotation
  // the server gave (scoring.table), never worked out here; cards wrongly dealt are dealt again
  // by whom the rules say.
  function dealAfter(dealer, contract, number) {
    var plan = rotationPlan();
    if (!plan) return { number: number + 1 };
    var turn = plan.deals[dealer];
    var next = turn ? (contract === "misdeal" ? turn.afterMisdeal : turn.next) : dealer;
    var trump = plan.trumps.length ? plan.trumps[number % plan.trumps.length] : null;
    return {
      number: number + 1,
      dealer: next,
      out: plan.deals[next] ? plan.deals[next].out : null,
      trump: trump ? trump.value : "",
      trumpLabel: trump ? trump.label : "",
    };
  }

  // Move the form on to the next deal: the one the server named in a save's answer (online), or,
  // with no server to ask, dealAfter's. The chips stay; only what they offer and hold changes.
  function moveToDeal(form, hand, online) {
    var plan = rotationPlan();
    var number = hand.number;
    if (!hand.dealer) hand = null;
    ["contract", "trump", "declarer", "partner", "tricks", "revoke_by", "second_revoke_by",
      "third_revoke_by", "penalty", "penalty_by", "turned_suit", "last_trick_by", "notes"]
      .forEach(function (name) { setValue(form, name, ""); });
    form.querySelectorAll("[data-tricks]").forEach(function (g) { g.classList.remove("all-tricks"); });
    field(form, "expected_number").value = number;
    field(form, "client_id").value = newId();
    form.dataset.number = String(number);
    if (hand) {
      field(form, "dealer").value = hand.dealer;
      // At a table of five another player sits out: offer the players of this hand only.
      ["declarer", "partner", "last_trick_by"].forEach(function (name) {
        form.querySelectorAll("input[type=radio][name=" + name + "]").forEach(function (radio) {
          var chip = radio.closest(".chip");
          chip.hidden = radio.value === hand.out;
        });
      });
      ["revoke_by", "second_revoke_by", "third_revoke_by", "penalty_by"].forEach(function (name) {
        var select = field(form, name);
        if (!select) return;
        Array.from(select.options).forEach(function (option) {
          option.hidden = option.disabled = option.value !== "" && option.value === hand.out;
        });
        select.value = "";
      });
      var facts = form.querySelector(".hand-facts");
      if (facts) {
        facts.replaceChildren(document.createTextNode("Dealer "), strong(plan.players[hand.dealer]));
        if (hand.out) facts.append(" · ", strong(plan.players[hand.out]), " sits out");
        if (hand.trumpLabel) facts.append(" · trumps this hand ", strong(hand.trumpLabel));
      }
    }
    var title = document.getElementById("entry-title");
    if (title) title.textContent = "Hand " + number;
    var button = document.getElementById("save-hand");
    if (button) button.textContent = "Save hand " + number;
    var preview = document.getElementById("preview");
    if (preview) {
      var body = document.createElement("div");
      body.className = "preview-body empty";
      var p = document.createElement("p");
      p.className = "muted";
      p.textContent = online
        ? "Choose the contract: the result and everyone's amount show here before you save."
        : "Offline: the result and amounts show once the hand reaches the server.";
      body.appendChild(p);
      preview.replaceChildren(body);
      preview.classList.remove("stale");
    }
    if (hand && hand.trump) setValue(form, "trump", hand.trump);
    showFieldsFor(form);
    form.querySelector("input[name=contract]").focus();
  }

  function strong(text) {
    var s = document.createElement("strong");
    s.textContent = text || "";
    return s;
  }

  window.SoloEntryForm = {
    isNewHandForm: isNewHandForm,
    field: field,
    valueOf: valueOf,
    textOf: textOf,
    setValue: setValue,
    newId: newId,
    showFieldsFor: showFieldsFor,
    formFields: formFields,
    typed: typed,
    describe: describe,
    missing: missing,
    rotationPlan: rotationPlan,
    dealAfter: dealAfter,
    moveToDeal: moveToDeal,
    strong: strong,
  };
})();
