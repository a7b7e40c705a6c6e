'use strict';
/* The storage-tier (#/storage) and fabric-configuration (#/fabric) views of the console. Loaded before
   the page's own script; uses its helpers (esc, num, when, table, get, $, rangePicker, bindRange, state)
   when a view is shown. */
window.consoleRoutes = window.consoleRoutes || {};

/* ---------- storage tiers ---------- */
window.consoleRoutes.storage = parts => ({ name: 'storage', view: () => viewStorage(parts[1] || ''), load: () => refreshStorage(parts[1] || '') });
function viewStorage(tier) {
  $('view').innerHTML = '<section class="wide"><h2>Storage tiers' + (tier ? ': ' + esc(tier) : '') + '</h2>' + rangePicker() +
    '<div class="controls">tier <a href="#/storage">all</a> · <a href="#/storage/local-nvme">local NVMe</a> · ' +
    '<a href="#/storage/lustre">Lustre</a> · <a href="#/storage/nfs">NFS</a></div>' +
    '<div id="ssum"></div><div id="slist"></div></section>';
  bindRange();
}
async function refreshStorage(tier) {
  const s = await get('/api/storage?last=' + state.range + (tier ? '&tier=' + encodeURIComponent(tier) : ''));
  $('ssum').innerHTML = '<p>' + esc(s.devices) + ' devices and mounts, <b>' + esc(s.degraded) + ' degraded</b>, ' +
    when(s.from) + ' to ' + when(s.to) + '</p>';
  $('slist').innerHTML = table(s.tiers, [
    ['state', r => '<span class="' + (r.state === 'ok' ? '' : 'warning') + '">' + esc(r.state) + '</span>'],
    ['node', r => esc(r.node)], ['tier', r => esc(r.tier)], ['device', r => esc(r.device)],
    ['read MB/s', r => num(r.read_mb_s, 1)], ['write MB/s', r => num(r.write_mb_s, 1)],
    ['ms per read', r => num(r.read_ms_per_op, 1)], ['ms per write', r => num(r.write_ms_per_op, 1)],
    ['media errors', r => r.media_errors == null ? '' : esc(r.media_errors) + (r.media_errors_added ? ' (+' + esc(r.media_errors_added) + ')' : '')],
    ['critical warning', r => r.critical_warning == null ? '' : r.critical_warning === 0 ? 'none' : '0x' + Number(r.critical_warning).toString(16)],
    ['endurance used', r => r.percentage_used == null ? '' : esc(r.percentage_used) + '%'],
    ['spare (min)', r => r.available_spare_pct_min == null ? '' : esc(r.available_spare_pct_min) + '%'],
    ['temp max', r => r.temp_c_max == null ? '' : num(r.temp_c_max, 0) + ' °C'],
    ['alerts', r => esc(r.alerts)], ['last sample', r => when(r.last_ts)]]);
}

/* ---------- fabric configuration ---------- */
window.consoleRoutes.fabric = parts => ({ name: 'fabric', view: () => viewFabric(parts[1] === 'drift'), load: () => refreshFabric(parts[1] === 'drift') });
function viewFabric(onlyDrift) {
  $('view').innerHTML = '<section class="wide"><h2>Fabric configuration</h2>' +
    '<div class="controls"><a href="#/fabric">every port</a> · <a href="#/fabric/drift">drifting ports only</a></div>' +
    '<div id="fsum"></div><div id="flist"></div></section>';
}
const fabricList = v => v == null ? '' : Array.isArray(v) ? '[' + v.join(',') + ']' : esc(JSON.stringify(v));
async function refreshFabric(onlyDrift) {
  const f = await get('/api/fabric' + (onlyDrift ? '?only_drift=1' : ''));
  $('fsum').innerHTML = '<p>' + esc(f.ports) + ' ports, <b>' + esc(f.drifting) + ' drifting</b> (FabricConfigDrift firing, or a value ' +
    'that differs from most of the rail\'s ports)</p>';
  const mark = (r, field, text) => (r.drift_fields || []).includes(field) || (r.differs_from_rail || []).includes(field)
    ? '<b class="warning">' + text + '</b>' : text;
  $('flist').innerHTML = table(f.config, [
    ['node', r => esc(r.node)], ['port', r => esc(r.device + '/' + r.port) + (r.netdev ? ' (' + esc(r.netdev) + ')' : '')],
    ['rail', r => esc(r.rail)], ['link', r => esc(r.link_layer)],
    ['MTU', r => mark(r, 'mtu_bytes', esc(r.mtu_bytes))], ['trust', r => mark(r, 'trust', esc(r.trust))],
    ['PFC', r => mark(r, 'pfc_prios', fabricList(r.pfc_prios))], ['ECN NP', r => mark(r, 'ecn_np_prios', fabricList(r.ecn_np_prios))],
    ['ECN RP', r => mark(r, 'ecn_rp_prios', fabricList(r.ecn_rp_prios))], ['CNP DSCP', r => mark(r, 'cnp_dscp', esc(r.cnp_dscp))],
    ['IB link', r => {
      if (r.rate_gbps == null) return '';
      const text = num(r.rate_gbps, 0) + ' Gb/s ' + esc(r.link_width) + ' ' + esc(r.link_speed);
      return ['rate_gbps', 'link_width', 'link_speed'].some(k => mark(r, k, '') !== '') ? '<b class="warning">' + text + '</b>' : text;
    }],
    ['cap mask', r => mark(r, 'cap_mask', esc(r.cap_mask))],
    // active / largest MTU (ibv_devinfo) and the SL-to-VL table (smpquery sl2vl), VL of SL 0..15
    ['active MTU', r => r.active_mtu == null ? '' : mark(r, 'active_mtu', esc(r.active_mtu)) +
      (r.max_mtu != null && r.max_mtu !== r.active_mtu ? ' of ' + esc(r.max_mtu) : '')],
    ['SL to VL', r => mark(r, 'sl2vl', fabricList(r.sl2vl))],
    ['differs from rail', r => esc((r.differs_from_rail || []).join(' '))],
    ['drift (firing)', r => r.drift ? '<span class="warning">' + esc(r.drift) + '</span> since ' + when(r.drift_since) : ''],
    ['read', r => when(r.ts)]]);
}
