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
# The payload arrives on standard input (see the README, "Exec hooks"). Delivery is at least once:
# after a crash a batch can come again, so a log may repeat a line; a hook that must not repeat
# itself keys on the asset's localIdentifier.
set -eu
log=${1:?usage: log-new-photos.sh LOGFILE}

jq -r '
  .changes[].assets.inserted[]
  | [ (.creationDate // "undated"),
      (if .location then "\(.location.latitude),\(.location.longitude)" else "nowhere" end),
      .mediaType,
      (.resources[0].path // "?") ]
  | @tsv' >> "$log"
