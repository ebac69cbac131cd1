// The preload: the only bridge between the sandboxed page and Electron. It exposes
// exactly what the protocol needs — where the server is and its secret — plus a
// native notification (whose click focuses its pane); everything else travels over the pane protocol itself.
import { contextBridge, ipcRenderer } from 'electron';

contextBridge.exposeInMainWorld('paneHost', {
  endpoint: (): Promise<{ url: string; token: string }> => ipcRenderer.invoke('pane:endpoint'),
  notify: (title: string, body: string, pane?: number): void => {
    ipcRenderer.send('pane:notify', String(title).slice(0, 200), String(body).slice(0, 1000), Number.isInteger(pane) ? pane : null);
  },
  onNotificationClick: (listener: (pane: number) => void): void => {
    ipcRenderer.on('pane:notification-click', (_e, pane: unknown) => {
      if (typeof pane === 'number' && Number.isInteger(pane)) listener(pane);
    });
  },
  platform: process.platform,
});
