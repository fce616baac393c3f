/* A table's phone page: the photo of the paper list is made smaller in the phone before it is sent (at most
   1600 px on its longest side, JPEG), so a send over a hall's busy network stays short. Where the browser cannot
   (no createImageBitmap, DataTransfer or canvas.toBlob) the original goes and the server bounds it
   (scoring/results/photos.py). A send while the photo is being made waits for it. */
(function () {
  "use strict";
  var MAX_SIDE = 1600, QUALITY = 0.8;
  var able = window.createImageBitmap && window.DataTransfer && window.HTMLCanvasElement &&
    HTMLCanvasElement.prototype.toBlob;

  function smaller(file) {
    return window.createImageBitmap(file, { imageOrientation: "from-image" }).then(function (bitmap) {
      var scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
      var canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      var context = canvas.getContext("2d");
      context.fillStyle = "#fff";  // a transparent picture on white, as the server does
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      if (bitmap.close) { bitmap.close(); }
      return new Promise(function (resolve, reject) {
        canvas.toBlob(function (blob) { return blob ? resolve(blob) : reject(new Error("no blob")); },
          "image/jpeg", QUALITY);
      });
    });
  }

  document.querySelectorAll("input[type=file][data-photo]").forEach(function (input) {
    var state = document.getElementById(input.dataset.state || "");
    var form = input.form;
    var busy = null;
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      if (state) { state.textContent = ""; }
      if (!able || !file) { return; }
      busy = smaller(file).then(function (blob) {
        if (blob.size >= file.size && file.type === "image/jpeg") { return; }  // already small: sent as it is
        var transfer = new DataTransfer();
        transfer.items.add(new File([blob], "photo.jpg", { type: "image/jpeg", lastModified: Date.now() }));
        input.files = transfer.files;  // no change event: this runs once per chosen photo
        if (state && input.dataset.ready) {
          state.textContent = input.dataset.ready.replace("{size}", String(Math.ceil(blob.size / 1024)));
        }
      }).catch(function () { /* the original goes: the server checks and bounds it */ }).then(function () {
        busy = null;
      });
    });
    if (!form) { return; }
    form.addEventListener("submit", function (event) {
      if (!busy) { return; }
      event.preventDefault();
      event.stopImmediatePropagation();
      busy.then(function () {
        if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
      });
    }, true);
  });
})();
