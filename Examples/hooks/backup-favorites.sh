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
set -eu
backup=${1:?usage: backup-favorites.sh BACKUP_DIR}

jq -r '
  .changes[].assets | (.inserted + .updated)[] | select(.isFavorite)
  | . as $asset
  | ([$asset.albums[] | select(.path != null) | .path][0]
     // ([$asset.albums[] | "Albums/\(.localizedTitle)"][0])
     // "Unfiled") as $album
  | $asset.resources[] | select(.type != "adjustmentData")
  | [.path, $album] | @tsv' |
while IFS="$(printf '\t')" read -r file album; do
    case $album in
        /*) target="$backup$album" ;;
        *) target="$backup/$album" ;;
    esac
    mkdir -p "$target"
    cp -n -p "$file" "$target/"
done
