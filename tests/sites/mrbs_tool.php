<?php
// The test MRBS's own hands (tests/sites/mrbs.py): what MRBS's admin pages and booking form
// would write, written by MRBS's own functions, so that rows look as MRBS makes them.
//
//   php mrbs_tool.php WEB_ROOT seed < {"areas": [...], "users": [...], "entries": [...]}
//   php mrbs_tool.php WEB_ROOT book < {"entries": [...]}
//
// Reads JSON on stdin (passwords travel there, never in argv), answers JSON on stdout:
// {"areas": {name: id}, "rooms": {"area/room": id}, "users": {login: id}, "entries": [id...]}.
declare(strict_types=1);
namespace MRBS;

$web = $argv[1];
$command = $argv[2];
chdir($web);
set_include_path($web . PATH_SEPARATOR . get_include_path());
$spec = json_decode(stream_get_contents(STDIN), true, 16, JSON_THROW_ON_ERROR);

require 'defaultincludes.inc';
require_once 'mrbs_sql.inc';

// A booking's iCalendar uid names the server, as it does when made through the web.
$server['SERVER_NAME'] = '127.0.0.1';

function fail(string $what): void
{
  fwrite(STDERR, $what . "\n");
  exit(1);
}

function room_ids(): array
{
  $ids = [];
  $res = db()->query(
    "SELECT R.id, R.room_name, A.area_name FROM " . _tbl('room') . " R JOIN " . _tbl('area') .
    " A ON A.id = R.area_id"
  );
  while (false !== ($row = $res->next_row_keyed())) {
    $ids[$row['area_name'] . '/' . $row['room_name']] = (int)$row['id'];
  }
  return $ids;
}

$out = ['areas' => [], 'rooms' => [], 'users' => [], 'entries' => []];

if ($command === 'seed') {
  // As the admin's «Add area» and «Add room» do (each area takes the config's defaults).
  foreach ($spec['areas'] as $area) {
    $error = '';
    $area_id = mrbsAddArea($area['name'], $error);
    if ($area_id === false) {
      fail("area {$area['name']}: $error");
    }
    $out['areas'][$area['name']] = $area_id;
    foreach ($area['rooms'] as $room) {
      $room_id = mrbsAddRoom($room['name'], $area_id, $error, $room['description'], $room['capacity']);
      if ($room_id === false) {
        fail("room {$room['name']}: $error");
      }
    }
  }
  // As edit_users.php does for the 'db' scheme: the password hashed by password_hash.
  foreach ($spec['users'] as $user) {
    db()->command(
      "INSERT INTO " . _tbl('users') . " (level, name, display_name, password_hash, email)" .
      " VALUES (?, ?, ?, ?, ?)",
      [$user['level'], $user['name'], $user['display_name'],
       password_hash($user['password'], PASSWORD_DEFAULT), $user['email']]
    );
    $out['users'][$user['name']] = db()->insert_id(_tbl('users'), 'id');
  }
} elseif ($command !== 'book') {
  fail("unknown command $command");
}

// Single bookings as edit_entry_handler.php stores them (no rule is checked: as an admin).
$rooms = room_ids();
foreach ($spec['entries'] ?? [] as $entry) {
  $key = $entry['area'] . '/' . $entry['room'];
  if (!isset($rooms[$key])) {
    fail("no room $key");
  }
  $id = mrbsCreateSingleEntry([
    'start_time' => $entry['start'],
    'end_time' => $entry['end'],
    'entry_type' => ENTRY_SINGLE,
    'room_id' => $rooms[$key],
    'create_by' => $entry['user'],
    'modified_by' => '',
    'name' => $entry['name'],
    'type' => $entry['type'],
    'description' => $entry['description'],
    'ical_uid' => generate_global_uid($entry['name']),
    'ical_sequence' => 0,
  ]);
  if ($id === 0) {
    fail("entry {$entry['name']} not made");
  }
  $out['entries'][] = $id;
}
$out['rooms'] = $rooms;

echo json_encode($out, JSON_UNESCAPED_UNICODE);
