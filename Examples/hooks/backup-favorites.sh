#!/bin/sh
# An exec hook for photosd: copies favorite photos and videos to a backup folder, keeping the
# path of the album that holds them:
#   /home/me/Pictures/Trips/Rome/IMG_1.jpg  ->  BACKUP/home/me/Pictures/Trips/Rome/IMG_1.jpg
# Assets only in user albums go under BACKUP/Albums/<title>/, assets in no album under BACKUP/Unfiled/.
#
#   [[hooks]]
#   name = "backup-favorites"
#   command = ["/path/to/Examples/hooks/backup-favorites.sh", "/mnt/backup"]
#   objects = ["asset"]
#   changes = ["inserted", "updated"]
#   predicate = "favorite == YES"
#
# It only reads the library's files. A copy that fails makes the hook exit non-zero, and photosd
# gives it the same batch again later; files already copied are kept (cp -n), so a batch given
# twice copies nothing twice.
#
# Everything in the payload is data, never a path to trust: an album's title is anyone's text (a
# limited token can name an album "../../../../tmp/x"), and a file name can hold a newline, a tab or
# a leading "-". So a title becomes one safe path component (no "/", no control character, never
# "." or "..", no leading "-" or ".", at most 100 characters), an album's folder is used only when
# it is an absolute path without "." or ".." parts, and the names reach cp and mkdir quoted by jq's
# @sh and after "--", never split on whitespace.
set -eu
backup=${1:?usage: backup-favorites.sh BACKUP_DIR}

# copy FILE DIRECTORY: FILE into DIRECTORY (made if missing), an existing copy kept.
# Copies $1 into the folder $2 unless a file of its name is there: under a temporary name first,
# so that a copy cut short (a full disk, a kill) is never taken for a backup.
copy() {
    mkdir -p -- "$2"
    name=$(basename -- "$1")
    [ -e "$2/$name" ] && return 0
    partial="$2/.$name.partial.$$"
    cp -p -- "$1" "$partial"
    mv -n -- "$partial" "$2/$name" || [ -e "$2/$name" ]
    rm -f -- "$partial"
}

commands=$(jq -r --arg backup "$backup" '
  # One path component from any text.
  def component:
    gsub("[[:cntrl:]/]"; "_")
    | sub("^[-.]"; "_")
    | if length > 100 then .[0:100] else . end
    | if . == "" then "_" else . end;
  # An album folder under the backup, or null when it is not a plain absolute path.
  def folder:
    if startswith("/") and (split("/") | all(. != "." and . != "..")) then . else null end;
  .changes[].assets | (.inserted + .updated)[] | select(.isFavorite)
  | . as $asset
  | ([$asset.albums[] | .path | select(. != null) | folder | select(. != null)][0] // null) as $folder
  | (if $folder != null then $backup + $folder
     else ([$asset.albums[] | select(.path == null) | "Albums/" + (.localizedTitle // "" | component)][0]
           // "Unfiled") as $relative
          | $backup + "/" + $relative
     end) as $target
  | $asset.resources[] | select(.type != "adjustmentData") | select(.path | startswith("/"))
  | "copy \([.path, $target] | @sh)"')
eval "$commands"
