// The application menu: File (Open Table…, Open Recent, Reload, Quit), Edit, View, Help, with the usual accelerators.
// Rebuilt whenever the recent tables change.
import type { MenuItemConstructorOptions } from 'electron';
import { Menu } from 'electron';
import type { RecentTable } from '../shared/api.js';

export interface MenuActions {
  openTable(): void;
  openRecent(path: string): void;
  reload(): void;
}

export function setAppMenu(recent: RecentTable[], actions: MenuActions, opts: { mac: boolean; devTools: boolean }): void {
  const recentItems: MenuItemConstructorOptions[] =
    recent.length > 0
      ? recent.map((r) => ({ label: r.path, click: () => actions.openRecent(r.path) }))
      : [{ label: 'No recent tables', enabled: false }];

  const template: MenuItemConstructorOptions[] = [
    ...(opts.mac ? [{ role: 'appMenu' } satisfies MenuItemConstructorOptions] : []),
    {
      label: '&File',
      submenu: [
        { label: 'Open Table…', accelerator: 'CmdOrCtrl+O', click: () => actions.openTable() },
        { label: 'Open Recent', submenu: recentItems },
        { type: 'separator' },
        { label: 'Reload', accelerator: 'CmdOrCtrl+R', click: () => actions.reload() },
        { type: 'separator' },
        opts.mac ? { role: 'close' } : { role: 'quit', accelerator: 'Ctrl+Q' },
      ],
    },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(opts.devTools ? ([{ type: 'separator' }, { role: 'toggleDevTools' }] satisfies MenuItemConstructorOptions[]) : []),
      ],
    },
    { role: 'help', submenu: [{ role: 'about', label: 'About Deltaport' }] },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
