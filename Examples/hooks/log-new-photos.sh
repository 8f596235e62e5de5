#!/bin/sh
# An exec hook for photosd: appends one line per new photo or video to a log, with when and where
# it was taken.
#
#   [[hooks]]
#   name = "log-new-photos"
#   command = ["/path/to/Examples/hooks/log-new-photos.sh", "/home/me/photos.log"]
#   objects = ["asset"]
#   changes = ["inserted"]
#
# The payload arrives on standard input (see docs/hooks.md, "Exec hooks"). Delivery is at least once:
# after a crash a batch can come again, so a log may repeat a line; a hook that must not repeat
# itself keys on the asset's localIdentifier.
#
# A file name can hold a tab, a newline or a terminal's escape sequence: each field is written
# escaped as in JSON (without the quotes), C1 controls as \u0080..\u009f too, so a photo is one
# line of tab-separated fields and reading the log in a terminal runs nothing.
set -eu
log=${1:?usage: log-new-photos.sh LOGFILE}

jq -r '
  # Text shown safely: JSON escapes (\n, \t, \u001b...), and C1 controls, which JSON leaves as they are.
  def shown:
    tostring | tojson | .[1:-1]
    | gsub("(?<c>[\u0080-\u009f])"; "\\u00" + (.c | explode[0] | [(. / 16 | floor), (. % 16)]
        | map(if . < 10 then . + 48 else . + 87 end) | implode));
  .changes[].assets.inserted[]
  | [ (.creationDate // "undated"),
      (if .location then "\(.location.latitude),\(.location.longitude)" else "nowhere" end),
      .mediaType,
      (.resources[0].path // "?") ]
  | map(shown) | join("\t")' >> "$log"
