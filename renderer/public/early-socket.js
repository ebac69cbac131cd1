// The window's WebSocket, opened before the app's modules load. index.html runs this
// classic script as it parses, while the module chunks are still arriving; evaluating
// them (React, xterm, the protocol's schemas) takes ~200 ms of a cold page, and the
// handshake happens meanwhile. The app adopts the socket, with whatever arrived in
// between (renderer/src/net/endpoint.ts takeEarlySocket), instead of opening its own.
// Not in Electron: there the endpoint comes from the preload bridge, asynchronously.
(function () {
  if (window.paneHost || window.paneEarlySocket) return;
  var url = new URL('ws', window.location.href);
  url.protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = '';
  url.hash = '';
  var ws = new WebSocket(url.toString());
  ws.binaryType = 'arraybuffer';
  var queued = [];
  var keep = function (e) {
    queued.push(e);
  };
  ws.addEventListener('message', keep);
  window.paneEarlySocket = {
    ws: ws,
    queued: queued,
    release: function () {
      ws.removeEventListener('message', keep);
    },
  };
})();
