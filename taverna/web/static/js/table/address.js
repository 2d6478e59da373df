// Two players of an official table on one address (PLATFORM.md): the game moves no
// points and no chips; said before the game, while it is played and after it.

import { api } from '../api.js';

/** Whether the table's game is void for a shared address. */
export function voided(page, x) {
  return !!x.official && (page.shared.known || !!x.shared_address || x.result?.settlement?.why === 'shared_address');
}

/** A table sent over the socket may not know yet that a new player shares an address
 * (the server notes the address after the seat): asked once per seating of two or more
 * people. Once shared, always shared (addresses are only ever added). */
export function checkShared(page) {
  const { shared } = page;
  const x = page.S.table;
  const people = (x?.seating ?? []).filter((s) => s.player_id).map((s) => s.player_id);
  const key = people.join(' ');
  if (!x?.official || x.shared_address || shared.known || people.length < 2 || key === shared.asked) return;
  shared.asked = key;
  api('GET', `/api/tables/${encodeURIComponent(x.id)}`).then(
    ({ table }) => {
      if (!table.shared_address || page.gone) return;
      shared.known = true;
      page.render();
    },
    () => {}, // asked again at the next change of seats
  );
}
