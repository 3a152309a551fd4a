// Hands saved while the phone is offline, kept in the browser (IndexedDB through the vendored
// idb-keyval; localStorage when IndexedDB is missing) until they are sent. One list per table, in
// the order they were saved. static/js/table-outbox.js shows them and sends them.
(function () {
  "use strict";

  var idb = window.idbKeyval;

  function key(table) {
    return "solo-outbox:" + table;
  }

  function read(table) {
    if (idb) {
      return idb.get(key(table)).then(function (items) {
        return items || [];
      });
    }
    try {
      return Promise.resolve(JSON.parse(localStorage.getItem(key(table)) || "[]"));
    } catch (error) {
      return Promise.resolve([]);
    }
  }

  function write(table, items) {
    if (idb) return idb.set(key(table), items).then(function () { return items; });
    localStorage.setItem(key(table), JSON.stringify(items));
    return Promise.resolve(items);
  }

  // Every change reads the list again and writes it back, one after another, so two changes
  // close together (a save offline while a send finishes) never overwrite each other.
  var chain = Promise.resolve();
  function change(table, edit) {
    chain = chain.then(function () {
      return read(table).then(function (items) {
        return write(table, edit(items.slice()));
      });
    });
    return chain;
  }

  window.SoloOutbox = {
    list: read,
    add: function (table, item) {
      return change(table, function (items) {
        if (!items.some(function (i) { return i.id === item.id; })) items.push(item);
        return items;
      });
    },
    remove: function (table, id) {
      return change(table, function (items) {
        return items.filter(function (i) { return i.id !== id; });
      });
    },
    update: function (table, item) {
      return change(table, function (items) {
        return items.map(function (i) { return i.id === item.id ? item : i; });
      });
    },
  };
})();
