// swift-format-ignore-file
// Generated from openapi/photosd.yaml by scripts/openapi-json: do not edit. OpenAPIDocumentTests
// fails while it and the YAML differ.

extension OpenAPIDocument {
    /// openapi/photosd.yaml as JSON, keys sorted: what GET /v1/openapi.json answers.
    static let json = ##"""
{
  "components": {
    "parameters": {
      "id": {
        "description": "A local identifier (`UUID/L0/001`); its slashes as they are or as `%2F`.",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": {
          "type": "string"
        }
      },
      "limit": {
        "description": "PhotoKit's fetchLimit, the most objects in all (0 for all).",
        "in": "query",
        "name": "limit",
        "schema": {
          "default": 0,
          "minimum": 0,
          "type": "integer"
        }
      },
      "next": {
        "description": "The cursor of the previous page. It stands for the whole query (give only `next` and\n`pageSize`), serves one page, and lasts 10 minutes. The listing is the snapshot the first\npage took: objects deleted since are left out, nothing shifts or repeats. A cursor pages\nonly the listing it came from.\n",
        "in": "query",
        "name": "next",
        "schema": {
          "minLength": 1,
          "type": "string"
        }
      },
      "offset": {
        "description": "Where the first page starts: a 0-based position of the listing (a timeline's window, with\n`pageSize`). Past the end, an empty page. The page's `next` goes on from its end.\n",
        "in": "query",
        "name": "offset",
        "schema": {
          "default": 0,
          "minimum": 0,
          "type": "integer"
        }
      },
      "pageSize": {
        "description": "The most objects in this page (not with `Accept application/x-ndjson`, which has no pages).",
        "in": "query",
        "name": "pageSize",
        "schema": {
          "default": 1000,
          "maximum": 10000,
          "minimum": 1,
          "type": "integer"
        }
      },
      "predicate": {
        "description": "A PhotoKit predicate format, e.g. `favorite == YES AND mediaType == 1`; the asset JSON's keys and names work too (`mediaType == video`, `mediaSubtypes CONTAINS \"photoLive\"`, `filename`, `make`, `model`, `distanceToLocation(location, 48.85, 2.35) < 5` in kilometres).",
        "in": "query",
        "name": "predicate",
        "schema": {
          "minLength": 1,
          "type": "string"
        }
      },
      "range": {
        "description": "One byte range: bytes=A-B, bytes=A- or bytes=-N (416 when it starts past the file's end). Another unit, a range that does not parse, and several ranges are ignored: the whole file is sent (200).",
        "in": "header",
        "name": "Range",
        "schema": {
          "type": "string"
        }
      },
      "sort": {
        "description": "A sort key, `-key` for descending; repeat or separate with commas.",
        "explode": true,
        "in": "query",
        "name": "sort",
        "schema": {
          "items": {
            "type": "string"
          },
          "type": "array"
        },
        "style": "form"
      }
    },
    "responses": {
      "Error": {
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        },
        "description": "What went wrong."
      },
      "File": {
        "content": {
          "*/*": {
            "schema": {
              "format": "binary",
              "type": "string"
            }
          }
        },
        "description": "The file's bytes (all, or the one range asked for, with Content-Range), typed by the\nresource's MIME type, with ETag, Last-Modified and Accept-Ranges.\n"
      },
      "Unauthorized": {
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        },
        "description": "No token where one is needed, or one that is unknown, revoked or expired.",
        "headers": {
          "WWW-Authenticate": {
            "description": "`Bearer realm=\"photosd\"`, with `error=\"invalid_token\"` when a token was sent.",
            "schema": {
              "type": "string"
            }
          }
        }
      }
    },
    "schemas": {
      "AddToAlbumOperation": {
        "additionalProperties": false,
        "description": "Appends assets not already in the album.",
        "properties": {
          "album": {
            "$ref": "#/components/schemas/ObjectName"
          },
          "assets": {
            "$ref": "#/components/schemas/ObjectNames"
          },
          "op": {
            "const": "addToAlbum"
          }
        },
        "required": [
          "op",
          "album",
          "assets"
        ],
        "type": "object"
      },
      "AddToFolderOperation": {
        "additionalProperties": false,
        "description": "Albums and folders move into the folder from wherever they were.",
        "properties": {
          "collections": {
            "$ref": "#/components/schemas/ObjectNames"
          },
          "folder": {
            "$ref": "#/components/schemas/ObjectName"
          },
          "op": {
            "const": "addToFolder"
          }
        },
        "required": [
          "op",
          "folder",
          "collections"
        ],
        "type": "object"
      },
      "Asset": {
        "description": "The asset JSON, as `photos assets --json` prints it.",
        "properties": {
          "albums": {
            "items": {
              "properties": {
                "localIdentifier": {
                  "type": "string"
                },
                "localizedTitle": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "path": {
                  "type": [
                    "string",
                    "null"
                  ]
                }
              },
              "required": [
                "localIdentifier"
              ],
              "type": "object"
            },
            "type": "array"
          },
          "burstIdentifier": {
            "type": [
              "string",
              "null"
            ]
          },
          "creationDate": {
            "description": "ISO 8601 with the offset",
            "type": [
              "string",
              "null"
            ]
          },
          "creationDateHasOffset": {
            "type": "boolean"
          },
          "creationDateIsFileTime": {
            "description": "the file states no date, so creationDate is its modification time",
            "type": "boolean"
          },
          "duration": {
            "type": "number"
          },
          "isAvailable": {
            "type": "boolean"
          },
          "isFavorite": {
            "type": "boolean"
          },
          "isHidden": {
            "type": "boolean"
          },
          "isLibraryOwned": {
            "description": "The library placed every file of the asset in its import folder (an upload, an import into the library): deleteAssets erases them at once, and the asset is not kept in Recently Deleted. False for the files of watched folders, which go to the Trash.",
            "type": "boolean"
          },
          "localIdentifier": {
            "type": "string"
          },
          "location": {
            "properties": {
              "altitude": {
                "type": [
                  "number",
                  "null"
                ]
              },
              "latitude": {
                "type": "number"
              },
              "longitude": {
                "type": "number"
              }
            },
            "type": [
              "object",
              "null"
            ]
          },
          "mediaSubtypes": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "mediaType": {
            "enum": [
              "unknown",
              "image",
              "video",
              "audio"
            ],
            "type": "string"
          },
          "modificationDate": {
            "type": [
              "string",
              "null"
            ]
          },
          "pixelHeight": {
            "type": "integer"
          },
          "pixelWidth": {
            "type": "integer"
          },
          "rating": {
            "description": "stars, 0 (none) to 5: the user's, or the file's xmp:Rating",
            "maximum": 5,
            "minimum": 0,
            "type": "integer"
          },
          "representsBurst": {
            "type": "boolean"
          },
          "resources": {
            "items": {
              "properties": {
                "fileSize": {
                  "type": [
                    "integer",
                    "null"
                  ]
                },
                "mimeType": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "path": {
                  "description": "The file's absolute path; in a library several hosts share, a file on another host's disk is HOST:PATH (nas:/srv/photos/IMG_1.JPG).",
                  "type": "string"
                },
                "type": {
                  "type": "string"
                },
                "uniformTypeIdentifier": {
                  "type": "string"
                }
              },
              "required": [
                "type",
                "path"
              ],
              "type": "object"
            },
            "type": "array"
          }
        },
        "required": [
          "localIdentifier",
          "mediaType",
          "mediaSubtypes",
          "pixelWidth",
          "pixelHeight",
          "isFavorite",
          "isHidden",
          "isAvailable",
          "resources",
          "albums"
        ],
        "type": "object"
      },
      "AssetMetadata": {
        "additionalProperties": false,
        "properties": {
          "albumPlaceNames": {
            "additionalProperties": {
              "items": {
                "type": "string"
              },
              "type": "array"
            },
            "description": "The place names of each album the asset is in (localizedLocationNames), by the album's identifier; absent when none has any.",
            "type": "object"
          },
          "camera": {
            "additionalProperties": false,
            "properties": {
              "exposureBias": {
                "description": "The exposure bias in EV.",
                "type": "number"
              },
              "exposureTime": {
                "description": "The exposure time in seconds.",
                "type": "number"
              },
              "exposureTimeText": {
                "description": "The exposure time as photographers write it: `1/250` below a quarter second, else seconds (`0.5`, `2`).",
                "type": "string"
              },
              "fNumber": {
                "description": "The aperture: 2.8 for f/2.8.",
                "type": "number"
              },
              "flash": {
                "description": "EXIF Flash as stored, a bit field: bit 0 fired, bits 3-4 the mode, bit 5 no flash function.",
                "type": "integer"
              },
              "flashFired": {
                "type": "boolean"
              },
              "focalLength": {
                "description": "The focal length in millimetres.",
                "type": "number"
              },
              "focalLengthIn35mm": {
                "description": "The 35 mm film equivalent focal length in millimetres.",
                "type": "integer"
              },
              "isoSpeed": {
                "description": "The ISO sensitivity (EXIF PhotographicSensitivity).",
                "type": "integer"
              },
              "lensMake": {
                "description": "EXIF LensMake.",
                "type": "string"
              },
              "lensModel": {
                "description": "EXIF LensModel (or a movie's lens key).",
                "type": "string"
              },
              "make": {
                "description": "EXIF Make.",
                "type": "string"
              },
              "model": {
                "description": "EXIF Model.",
                "type": "string"
              },
              "software": {
                "description": "EXIF Software",
                "the program that wrote the file.": null,
                "type": "string"
              }
            },
            "type": "object"
          },
          "localIdentifier": {
            "type": "string"
          },
          "path": {
            "description": "The file read",
            "the asset's first resource.": null,
            "type": "string"
          },
          "placeNames": {
            "description": "Where the photo was taken, named after the gazetteer's nearest place; absent without a location or a gazetteer.",
            "items": {
              "type": "string"
            },
            "type": "array"
          }
        },
        "required": [
          "localIdentifier",
          "path",
          "camera"
        ],
        "type": "object"
      },
      "Change": {
        "description": "One change-log entry, as `photos changes --json` prints it.",
        "properties": {
          "asset": {
            "$ref": "#/components/schemas/ObjectChanges"
          },
          "assetCollection": {
            "$ref": "#/components/schemas/ObjectChanges"
          },
          "collectionList": {
            "$ref": "#/components/schemas/ObjectChanges"
          },
          "imports": {
            "description": "Only on an entry that imported assets from a drop folder (`photos import`, `[[imports]]`): each asset, the drop folder's file its primary file was, and where that file is now.",
            "items": {
              "$ref": "#/components/schemas/ImportOrigin"
            },
            "type": "array"
          },
          "sidecarConflicts": {
            "description": "Only on an entry that settled them: fields of assets that the library and another tool both changed in an XMP sidecar since they last agreed, and the value kept (the newer write).",
            "items": {
              "$ref": "#/components/schemas/SidecarConflict"
            },
            "type": "array"
          },
          "timestamp": {
            "type": "number"
          },
          "token": {
            "format": "int64",
            "type": "integer"
          }
        },
        "required": [
          "token",
          "timestamp",
          "asset",
          "assetCollection",
          "collectionList"
        ],
        "type": "object"
      },
      "ChangeBatch": {
        "additionalProperties": false,
        "description": "`POST /v1/changes`'s body.",
        "properties": {
          "changes": {
            "items": {
              "$ref": "#/components/schemas/ChangeOperation"
            },
            "maxItems": 10000,
            "type": "array"
          }
        },
        "required": [
          "changes"
        ],
        "type": "object"
      },
      "ChangeBatchResult": {
        "additionalProperties": false,
        "properties": {
          "created": {
            "additionalProperties": {
              "type": "string"
            },
            "description": "The local identifier of each object the batch created, by `ref` (or by the operation's position).",
            "type": "object"
          },
          "token": {
            "description": "The commit's change token (the current one if nothing changed).",
            "format": "int64",
            "type": "integer"
          }
        },
        "required": [
          "created",
          "token"
        ],
        "type": "object"
      },
      "ChangeOperation": {
        "description": "One operation, told by its `op`.",
        "oneOf": [
          {
            "$ref": "#/components/schemas/CreateAssetOperation"
          },
          {
            "$ref": "#/components/schemas/EditAssetOperation"
          },
          {
            "$ref": "#/components/schemas/DeleteAssetsOperation"
          },
          {
            "$ref": "#/components/schemas/CreateAlbumOperation"
          },
          {
            "$ref": "#/components/schemas/RenameAlbumOperation"
          },
          {
            "$ref": "#/components/schemas/DeleteAlbumsOperation"
          },
          {
            "$ref": "#/components/schemas/AddToAlbumOperation"
          },
          {
            "$ref": "#/components/schemas/RemoveFromAlbumOperation"
          },
          {
            "$ref": "#/components/schemas/MoveInAlbumOperation"
          },
          {
            "$ref": "#/components/schemas/CreateFolderOperation"
          },
          {
            "$ref": "#/components/schemas/RenameFolderOperation"
          },
          {
            "$ref": "#/components/schemas/DeleteFoldersOperation"
          },
          {
            "$ref": "#/components/schemas/AddToFolderOperation"
          },
          {
            "$ref": "#/components/schemas/RemoveFromFolderOperation"
          }
        ]
      },
      "Collection": {
        "description": "The collection JSON (an album or a folder).",
        "properties": {
          "endDate": {
            "type": [
              "string",
              "null"
            ]
          },
          "estimatedAssetCount": {
            "type": [
              "integer",
              "null"
            ]
          },
          "localIdentifier": {
            "type": "string"
          },
          "localizedTitle": {
            "type": [
              "string",
              "null"
            ]
          },
          "parentLocalIdentifier": {
            "type": [
              "string",
              "null"
            ]
          },
          "path": {
            "type": [
              "string",
              "null"
            ]
          },
          "startDate": {
            "type": [
              "string",
              "null"
            ]
          },
          "subtype": {
            "type": "string"
          },
          "type": {
            "type": "string"
          }
        },
        "required": [
          "localIdentifier",
          "type",
          "subtype"
        ],
        "type": "object"
      },
      "CreateAlbumOperation": {
        "additionalProperties": false,
        "description": "A user album, at the top level or in a folder.",
        "properties": {
          "folder": {
            "$ref": "#/components/schemas/ObjectName"
          },
          "op": {
            "const": "createAlbum"
          },
          "ref": {
            "$ref": "#/components/schemas/PlaceholderName"
          },
          "title": {
            "minLength": 1,
            "type": "string"
          }
        },
        "required": [
          "op",
          "title"
        ],
        "type": "object"
      },
      "CreateAssetOperation": {
        "additionalProperties": false,
        "description": "A new asset from a file (PHAssetCreationRequest): an upload, or a path of the caller's; exactly one.",
        "oneOf": [
          {
            "not": {
              "required": [
                "move"
              ]
            },
            "required": [
              "upload"
            ]
          },
          {
            "required": [
              "path"
            ]
          }
        ],
        "properties": {
          "move": {
            "default": false,
            "description": "With path: the file is removed from path after the commit.",
            "type": "boolean"
          },
          "op": {
            "const": "createAsset"
          },
          "path": {
            "description": "An absolute path: a read-write client on the Unix socket only, a file it may read.",
            "minLength": 1,
            "type": "string"
          },
          "ref": {
            "$ref": "#/components/schemas/PlaceholderName"
          },
          "type": {
            "description": "By default what the content is.",
            "enum": [
              "photo",
              "video",
              "audio"
            ],
            "type": "string"
          },
          "upload": {
            "description": "What POST /v1/uploads answered; this client's.",
            "minLength": 1,
            "type": "string"
          }
        },
        "required": [
          "op"
        ],
        "type": "object"
      },
      "CreateFolderOperation": {
        "additionalProperties": false,
        "description": "A folder (collection list), at the top level or in another.",
        "properties": {
          "folder": {
            "$ref": "#/components/schemas/ObjectName"
          },
          "op": {
            "const": "createFolder"
          },
          "ref": {
            "$ref": "#/components/schemas/PlaceholderName"
          },
          "title": {
            "minLength": 1,
            "type": "string"
          }
        },
        "required": [
          "op",
          "title"
        ],
        "type": "object"
      },
      "Cursor": {
        "description": "Present when there is another page; pass it as `next`.",
        "type": "string"
      },
      "DayIndex": {
        "additionalProperties": false,
        "properties": {
          "count": {
            "description": "The assets of the listing.",
            "minimum": 0,
            "type": "integer"
          },
          "days": {
            "items": {
              "additionalProperties": false,
              "properties": {
                "count": {
                  "minimum": 1,
                  "type": "integer"
                },
                "day": {
                  "description": "`YYYY-MM-DD`, the first ten characters of the assets' `creationDate`; null: no date.",
                  "pattern": "^.{10}$",
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "start": {
                  "description": "The run's first position in the listing.",
                  "minimum": 0,
                  "type": "integer"
                }
              },
              "required": [
                "day",
                "count",
                "start"
              ],
              "type": "object"
            },
            "type": "array"
          }
        },
        "required": [
          "days",
          "count"
        ],
        "type": "object"
      },
      "DeleteAlbumsOperation": {
        "additionalProperties": false,
        "description": "Albums go; their assets stay.",
        "properties": {
          "albums": {
            "$ref": "#/components/schemas/ObjectNames"
          },
          "op": {
            "const": "deleteAlbums"
          }
        },
        "required": [
          "op",
          "albums"
        ],
        "type": "object"
      },
      "DeleteAssetsOperation": {
        "additionalProperties": false,
        "description": "Assets leave the library; files it imported go with them. Files in watched folders go to the Trash under a root with write = \"files\" (the asset waits in Recently Deleted); elsewhere the batch is refused (accessRestricted).",
        "properties": {
          "assets": {
            "$ref": "#/components/schemas/ObjectNames"
          },
          "op": {
            "const": "deleteAssets"
          }
        },
        "required": [
          "op",
          "assets"
        ],
        "type": "object"
      },
      "DeleteFoldersOperation": {
        "additionalProperties": false,
        "description": "Folders go, with the albums and folders in them (not their assets).",
        "properties": {
          "folders": {
            "$ref": "#/components/schemas/ObjectNames"
          },
          "op": {
            "const": "deleteFolders"
          }
        },
        "required": [
          "op",
          "folders"
        ],
        "type": "object"
      },
      "EditAssetOperation": {
        "additionalProperties": false,
        "description": "An asset's properties (PHAssetChangeRequest); at least one of them.",
        "properties": {
          "asset": {
            "$ref": "#/components/schemas/ObjectName"
          },
          "creationDate": {
            "description": "RFC 3339 with a UTC offset (a date that exists, an offset up to 14:00); the offset is kept and decides the photo's day. null clears it.",
            "type": [
              "string",
              "null"
            ]
          },
          "isFavorite": {
            "type": "boolean"
          },
          "isHidden": {
            "type": "boolean"
          },
          "location": {
            "additionalProperties": false,
            "description": "null clears it.",
            "properties": {
              "altitude": {
                "type": "number"
              },
              "latitude": {
                "maximum": 90,
                "minimum": -90,
                "type": "number"
              },
              "longitude": {
                "maximum": 180,
                "minimum": -180,
                "type": "number"
              }
            },
            "required": [
              "latitude",
              "longitude"
            ],
            "type": [
              "object",
              "null"
            ]
          },
          "op": {
            "const": "editAsset"
          },
          "rating": {
            "description": "stars; 0 clears them",
            "maximum": 5,
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "op",
          "asset"
        ],
        "type": "object"
      },
      "Error": {
        "additionalProperties": false,
        "properties": {
          "error": {
            "additionalProperties": false,
            "properties": {
              "code": {
                "description": "A PHPhotosError code where PhotoKit has one (3105), else the HTTP status.",
                "type": "integer"
              },
              "domain": {
                "enum": [
                  "HTTP",
                  "PHPhotosErrorDomain"
                ],
                "type": "string"
              },
              "message": {
                "type": "string"
              }
            },
            "required": [
              "code",
              "domain",
              "message"
            ],
            "type": "object"
          }
        },
        "required": [
          "error"
        ],
        "type": "object"
      },
      "Health": {
        "additionalProperties": false,
        "properties": {
          "library": {
            "description": "The library file the daemon serves.",
            "type": "string"
          },
          "status": {
            "enum": [
              "ok",
              "starting"
            ],
            "type": "string"
          },
          "token": {
            "format": "int64",
            "type": "integer"
          },
          "version": {
            "description": "photosd's version.",
            "type": "string"
          },
          "warnings": {
            "description": "What is wrong without stopping photosd from serving (a root offline while others are followed).",
            "items": {
              "type": "string"
            },
            "type": "array"
          }
        },
        "required": [
          "status",
          "token"
        ],
        "type": "object"
      },
      "HookStatus": {
        "description": "One hook, as `photos hooks status --json` shows it.",
        "properties": {
          "command": {
            "items": {
              "type": "string"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "cursor": {
            "description": "The last token it acknowledged.",
            "format": "int64",
            "type": [
              "integer",
              "null"
            ]
          },
          "delivered": {
            "type": "integer"
          },
          "failures": {
            "description": "Failed runs in a row.",
            "type": "integer"
          },
          "lag": {
            "description": "Change-log entries after its cursor.",
            "type": [
              "integer",
              "null"
            ]
          },
          "lastDuration": {
            "type": [
              "number",
              "null"
            ]
          },
          "lastOutcome": {
            "type": [
              "string",
              "null"
            ]
          },
          "lastRunAt": {
            "description": "ISO 8601 at UTC.",
            "type": [
              "string",
              "null"
            ]
          },
          "name": {
            "type": "string"
          },
          "parkedReason": {
            "type": [
              "string",
              "null"
            ]
          },
          "runs": {
            "type": "integer"
          },
          "state": {
            "enum": [
              "ok",
              "retrying",
              "parked",
              "disabled",
              "new"
            ],
            "type": "string"
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "name",
          "state",
          "failures",
          "runs",
          "delivered"
        ],
        "type": "object"
      },
      "ImportListing": {
        "properties": {
          "imports": {
            "items": {
              "$ref": "#/components/schemas/ImportStatus"
            },
            "type": "array"
          }
        },
        "required": [
          "imports"
        ],
        "type": "object"
      },
      "ImportOrigin": {
        "additionalProperties": false,
        "properties": {
          "localIdentifier": {
            "type": "string"
          },
          "path": {
            "description": "Where it is now",
            "type": "string",
            "under the import's root.": null
          },
          "source": {
            "description": "Where the asset's primary file was in the drop folder.",
            "type": "string"
          }
        },
        "required": [
          "localIdentifier",
          "source",
          "path"
        ],
        "type": "object"
      },
      "ImportStatus": {
        "description": "One watched import folder.",
        "properties": {
          "duplicates": {
            "description": "photos left at the last run as duplicates",
            "type": "integer"
          },
          "files": {
            "description": "their files",
            "type": "integer"
          },
          "from": {
            "description": "the drop folder",
            "type": "string"
          },
          "imported": {
            "description": "photos imported since photosd started",
            "type": "integer"
          },
          "lastError": {
            "type": [
              "string",
              "null"
            ]
          },
          "lastRun": {
            "description": "when the last run ended",
            "seconds since 1970": null,
            "type": [
              "number",
              "null"
            ]
          },
          "left": {
            "description": "other files left at the last run",
            "type": "integer"
          },
          "mode": {
            "enum": [
              "move",
              "copy"
            ],
            "type": "string"
          },
          "pending": {
            "description": "files still being written at the last run",
            "type": "integer"
          },
          "reason": {
            "description": "why it is not watched",
            "type": [
              "string",
              "null"
            ]
          },
          "rejected": {
            "description": "files left at the last run that cannot be read whole",
            "type": "integer"
          },
          "state": {
            "enum": [
              "watching",
              "unwatched"
            ],
            "type": "string"
          },
          "to": {
            "description": "the root its photos are filed under",
            "type": "string"
          }
        },
        "required": [
          "from",
          "to",
          "mode",
          "state",
          "imported",
          "files",
          "duplicates",
          "rejected",
          "left",
          "pending"
        ],
        "type": "object"
      },
      "Index": {
        "additionalProperties": false,
        "properties": {
          "apiVersion": {
            "type": "string"
          },
          "endpoints": {
            "description": "Each operation as `METHOD PATH` (`GET /v1/assets/{id}`), by path.",
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "name": {
            "const": "photosd",
            "type": "string"
          },
          "openapi": {
            "description": "Where this document is served as JSON.",
            "type": "string"
          },
          "version": {
            "type": "string"
          }
        },
        "required": [
          "name",
          "version",
          "apiVersion",
          "openapi",
          "endpoints"
        ],
        "type": "object"
      },
      "LiveQueryListing": {
        "description": "A whole result, named after the query's kind; the initial one carries its token, a reset does not (the record's token says).",
        "oneOf": [
          {
            "additionalProperties": false,
            "properties": {
              "assets": {
                "items": {
                  "$ref": "#/components/schemas/Asset"
                },
                "type": "array"
              },
              "count": {
                "type": "integer"
              },
              "token": {
                "type": "integer"
              }
            },
            "required": [
              "assets",
              "count"
            ],
            "type": "object"
          },
          {
            "additionalProperties": false,
            "properties": {
              "albums": {
                "items": {
                  "$ref": "#/components/schemas/Collection"
                },
                "type": "array"
              },
              "count": {
                "type": "integer"
              },
              "token": {
                "type": "integer"
              }
            },
            "required": [
              "albums",
              "count"
            ],
            "type": "object"
          },
          {
            "additionalProperties": false,
            "properties": {
              "count": {
                "type": "integer"
              },
              "folders": {
                "items": {
                  "$ref": "#/components/schemas/Collection"
                },
                "type": "array"
              },
              "token": {
                "type": "integer"
              }
            },
            "required": [
              "folders",
              "count"
            ],
            "type": "object"
          }
        ]
      },
      "LiveQueryRecord": {
        "additionalProperties": false,
        "description": "One record of a live query's stream (see POST /v1/queries).",
        "properties": {
          "changed": {
            "items": {
              "$ref": "#/components/schemas/Placed"
            },
            "type": "array"
          },
          "count": {
            "type": "integer"
          },
          "initial": {
            "$ref": "#/components/schemas/LiveQueryListing"
          },
          "inserted": {
            "items": {
              "$ref": "#/components/schemas/Placed"
            },
            "type": "array"
          },
          "moves": {
            "items": {
              "properties": {
                "from": {
                  "type": "integer"
                },
                "to": {
                  "type": "integer"
                }
              },
              "required": [
                "from",
                "to"
              ],
              "type": "object"
            },
            "type": "array"
          },
          "removed": {
            "items": {
              "type": "integer"
            },
            "type": "array"
          },
          "reset": {
            "$ref": "#/components/schemas/LiveQueryListing"
          },
          "token": {
            "type": "integer"
          }
        },
        "type": "object"
      },
      "MoveInAlbumOperation": {
        "additionalProperties": false,
        "description": "The assets at positions `from` move to `to` of the album once they are taken out (moveAssets(at:to:)).",
        "properties": {
          "album": {
            "$ref": "#/components/schemas/ObjectName"
          },
          "from": {
            "items": {
              "minimum": 0,
              "type": "integer"
            },
            "minItems": 1,
            "type": "array"
          },
          "op": {
            "const": "moveInAlbum"
          },
          "to": {
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "op",
          "album",
          "from",
          "to"
        ],
        "type": "object"
      },
      "ObjectChanges": {
        "properties": {
          "changedProperties": {
            "additionalProperties": {
              "items": {
                "type": "string"
              },
              "type": "array"
            },
            "type": "object"
          },
          "deleted": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "inserted": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "updated": {
            "items": {
              "type": "string"
            },
            "type": "array"
          }
        },
        "required": [
          "inserted",
          "updated",
          "deleted"
        ],
        "type": "object"
      },
      "ObjectName": {
        "description": "A local identifier, or `$NAME` for the object an earlier operation of the batch made with `\"ref\": \"NAME\"`.",
        "minLength": 1,
        "type": "string"
      },
      "ObjectNames": {
        "items": {
          "$ref": "#/components/schemas/ObjectName"
        },
        "minItems": 1,
        "type": "array"
      },
      "Placed": {
        "description": "An object at its position after the change, named after the query's kind.",
        "oneOf": [
          {
            "additionalProperties": false,
            "properties": {
              "asset": {
                "$ref": "#/components/schemas/Asset"
              },
              "index": {
                "type": "integer"
              }
            },
            "required": [
              "index",
              "asset"
            ],
            "type": "object"
          },
          {
            "additionalProperties": false,
            "properties": {
              "album": {
                "$ref": "#/components/schemas/Collection"
              },
              "index": {
                "type": "integer"
              }
            },
            "required": [
              "index",
              "album"
            ],
            "type": "object"
          },
          {
            "additionalProperties": false,
            "properties": {
              "folder": {
                "$ref": "#/components/schemas/Collection"
              },
              "index": {
                "type": "integer"
              }
            },
            "required": [
              "index",
              "folder"
            ],
            "type": "object"
          }
        ]
      },
      "PlaceholderName": {
        "description": "Names the created object for later operations of the batch (as `$NAME`) and in the answer's `created`.",
        "pattern": "^[A-Za-z][A-Za-z0-9_.-]{0,63}$",
        "type": "string"
      },
      "RejectedFile": {
        "additionalProperties": false,
        "description": "A file that looks like a photo or a video but could not be read (a line of `photos rejected --json`).",
        "properties": {
          "code": {
            "description": "The kind of failure: truncated, corrupt, notMedia, empty, tooLarge, unreadable...",
            "type": "string"
          },
          "path": {
            "description": "Its absolute path; another host's named by it (`nas:/srv/photos/bad.jpg`).",
            "type": "string"
          },
          "reason": {
            "description": "What is wrong, for people.",
            "type": "string"
          }
        },
        "required": [
          "path",
          "code",
          "reason"
        ],
        "type": "object"
      },
      "RejectedListing": {
        "additionalProperties": false,
        "properties": {
          "files": {
            "items": {
              "$ref": "#/components/schemas/RejectedFile"
            },
            "type": "array"
          },
          "total": {
            "description": "How many rejected files the library holds in all.",
            "minimum": 0,
            "type": "integer"
          }
        },
        "required": [
          "files",
          "total"
        ],
        "type": "object"
      },
      "RemoveFromAlbumOperation": {
        "additionalProperties": false,
        "description": "Takes assets out of the album (they stay in the library).",
        "properties": {
          "album": {
            "$ref": "#/components/schemas/ObjectName"
          },
          "assets": {
            "$ref": "#/components/schemas/ObjectNames"
          },
          "op": {
            "const": "removeFromAlbum"
          }
        },
        "required": [
          "op",
          "album",
          "assets"
        ],
        "type": "object"
      },
      "RemoveFromFolderOperation": {
        "additionalProperties": false,
        "description": "Albums and folders move out of the folder, to the top level.",
        "properties": {
          "collections": {
            "$ref": "#/components/schemas/ObjectNames"
          },
          "folder": {
            "$ref": "#/components/schemas/ObjectName"
          },
          "op": {
            "const": "removeFromFolder"
          }
        },
        "required": [
          "op",
          "folder",
          "collections"
        ],
        "type": "object"
      },
      "RenameAlbumOperation": {
        "additionalProperties": false,
        "description": "An album's title.",
        "properties": {
          "album": {
            "$ref": "#/components/schemas/ObjectName"
          },
          "op": {
            "const": "renameAlbum"
          },
          "title": {
            "minLength": 1,
            "type": "string"
          }
        },
        "required": [
          "op",
          "album",
          "title"
        ],
        "type": "object"
      },
      "RenameFolderOperation": {
        "additionalProperties": false,
        "description": "A folder's title.",
        "properties": {
          "folder": {
            "$ref": "#/components/schemas/ObjectName"
          },
          "op": {
            "const": "renameFolder"
          },
          "title": {
            "minLength": 1,
            "type": "string"
          }
        },
        "required": [
          "op",
          "folder",
          "title"
        ],
        "type": "object"
      },
      "ServerSentEvent": {
        "description": "One event of a text/event-stream answer; `data` is the record the JSON Lines answer carries on one line.",
        "properties": {
          "data": {
            "type": "string"
          },
          "event": {
            "type": "string"
          },
          "id": {
            "description": "The change token (change streams).",
            "type": "string"
          }
        },
        "required": [
          "data"
        ],
        "type": "object"
      },
      "SidecarConflict": {
        "additionalProperties": false,
        "properties": {
          "field": {
            "description": "rating, isFavorite, isHidden, creationDate, location, albums, pair or adjustment.",
            "type": "string"
          },
          "kept": {
            "enum": [
              "library",
              "sidecar"
            ],
            "type": "string"
          },
          "libraryValue": {
            "type": [
              "string",
              "null"
            ]
          },
          "localIdentifier": {
            "type": "string"
          },
          "sidecar": {
            "description": "The sidecar's path.",
            "type": "string"
          },
          "sidecarValue": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "localIdentifier",
          "sidecar",
          "field",
          "kept"
        ],
        "type": "object"
      },
      "Status": {
        "properties": {
          "hooks": {
            "items": {
              "$ref": "#/components/schemas/HookStatus"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "imports": {
            "items": {
              "$ref": "#/components/schemas/ImportStatus"
            },
            "type": [
              "array",
              "null"
            ]
          },
          "ingested": {
            "type": "integer"
          },
          "lastErrors": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "library": {
            "type": [
              "object",
              "null"
            ]
          },
          "moved": {
            "type": "integer"
          },
          "pid": {
            "type": "integer"
          },
          "queueDepth": {
            "type": "integer"
          },
          "rejected": {
            "type": "integer"
          },
          "removed": {
            "type": "integer"
          },
          "roots": {
            "items": {
              "properties": {
                "path": {
                  "type": "string"
                },
                "reason": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "state": {
                  "type": "string"
                }
              },
              "required": [
                "path",
                "state"
              ],
              "type": "object"
            },
            "type": "array"
          },
          "startedAt": {
            "type": "number"
          },
          "startup": {
            "description": "What the startup crawl did: directoriesDone, filesSeen, ingested, rejected, seconds.",
            "type": [
              "object",
              "null"
            ]
          },
          "unwatchedDirectories": {
            "type": "integer"
          },
          "updated": {
            "type": "integer"
          },
          "updatedAt": {
            "type": "number"
          },
          "watchBudget": {
            "type": "integer"
          },
          "watches": {
            "type": "integer"
          }
        },
        "required": [
          "pid",
          "startedAt",
          "updatedAt",
          "roots",
          "watches",
          "watchBudget",
          "unwatchedDirectories",
          "queueDepth",
          "ingested",
          "updated",
          "moved",
          "removed",
          "rejected",
          "lastErrors"
        ],
        "type": "object"
      },
      "TrashRequest": {
        "additionalProperties": false,
        "properties": {
          "dryRun": {
            "default": false,
            "description": "Say what would be done; change nothing.",
            "type": "boolean"
          },
          "identifiers": {
            "description": "Local identifiers of assets in Recently Deleted (restore needs at least one; empty without it erases every one).",
            "items": {
              "type": "string"
            },
            "type": "array"
          }
        },
        "type": "object"
      },
      "TrashRestoreFailure": {
        "additionalProperties": false,
        "description": "A restore some of whose assets could not come back: the first one's error, and what was done all the same.",
        "properties": {
          "error": {
            "$ref": "#/components/schemas/Error/properties/error"
          },
          "result": {
            "$ref": "#/components/schemas/TrashResult"
          }
        },
        "required": [
          "error",
          "result"
        ],
        "type": "object"
      },
      "TrashResult": {
        "additionalProperties": false,
        "properties": {
          "alreadyRestored": {
            "description": "Restore: the identifiers named that are in the library, not in Recently Deleted (restored already); absent when none.",
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "assets": {
            "items": {
              "additionalProperties": false,
              "properties": {
                "files": {
                  "description": "Restore: the paths the files went back to. Empty: the files erased from the Trash.",
                  "items": {
                    "type": "string"
                  },
                  "type": "array"
                },
                "localIdentifier": {
                  "type": "string"
                }
              },
              "required": [
                "localIdentifier",
                "files"
              ],
              "type": "object"
            },
            "type": "array"
          },
          "dryRun": {
            "description": "Whether nothing was done.",
            "type": "boolean"
          },
          "failed": {
            "description": "Restore: the assets that could not come back (a path taken after the check); they stay in Recently Deleted. Absent when none.",
            "items": {
              "additionalProperties": false,
              "properties": {
                "error": {
                  "$ref": "#/components/schemas/Error/properties/error"
                },
                "localIdentifier": {
                  "type": "string"
                },
                "path": {
                  "description": "The file that could not go back, where it was to go.",
                  "type": "string"
                },
                "trashPath": {
                  "description": "Where that file is in the Trash.",
                  "type": "string"
                }
              },
              "required": [
                "localIdentifier",
                "error"
              ],
              "type": "object"
            },
            "type": "array"
          }
        },
        "required": [
          "dryRun",
          "assets"
        ],
        "type": "object"
      },
      "TrashedAsset": {
        "additionalProperties": false,
        "description": "A deleted asset in Recently Deleted; a line of `photos trash list --json`.",
        "properties": {
          "deletionDate": {
            "description": "When it was deleted (UTC).",
            "format": "date-time",
            "type": "string"
          },
          "files": {
            "description": "Its files (the photo, a Live Photo's movie, a RAW+JPEG partner, sidecars), in the order they were trashed.",
            "items": {
              "additionalProperties": false,
              "properties": {
                "path": {
                  "description": "Where the file was, and goes back to.",
                  "type": "string"
                },
                "trashPath": {
                  "description": "Where it is in its Trash's `files/`; absent while the deletion has not moved it yet.",
                  "type": "string"
                }
              },
              "required": [
                "path"
              ],
              "type": "object"
            },
            "type": "array"
          },
          "localIdentifier": {
            "description": "The asset's local identifier, the one it has again when restored.",
            "type": "string"
          }
        },
        "required": [
          "localIdentifier",
          "deletionDate",
          "files"
        ],
        "type": "object"
      },
      "Version": {
        "additionalProperties": false,
        "properties": {
          "apiVersion": {
            "description": "The API's version: this document's `info.version`.",
            "type": "string"
          },
          "name": {
            "const": "photosd",
            "type": "string"
          },
          "version": {
            "description": "`MAJOR.MINOR.PATCH`, as `photosd --version` prints it.",
            "type": "string"
          }
        },
        "required": [
          "name",
          "version",
          "apiVersion"
        ],
        "type": "object"
      }
    },
    "securitySchemes": {
      "bearer": {
        "description": "A token from `photos token create` (`pht_` and 43 base64url characters), at one of\nPhotoKit's access levels: read-write, read-only, add-only, limited (to some albums). The\nsocket's owner needs none.\n",
        "scheme": "bearer",
        "type": "http"
      }
    }
  },
  "info": {
    "description": "photosd serves this API on `$XDG_RUNTIME_DIR/photosd.sock` (mode 0600; `--socket PATH` or the\nconfig's `socket` key move it, `\"\"` turns it off), e.g.\n`curl --unix-socket $XDG_RUNTIME_DIR/photosd.sock http://photosd/v1/assets`.\nThe shapes are those of docs/architecture.md: the asset and collection JSON that `photos … --json` prints and hook\npayloads carry, and the change-log entries of `photos changes --json`. Keys are sorted; absent\nvalues are `null`. Query values are form-encoded (`+` or `%20` for a space).\nEvery failure answers `{\"error\": {\"code\", \"domain\", \"message\"}}`; a known path asked with a\nmethod it does not answer is a 405 whose `Allow` header lists the ones it does.\n\nAccess (PhotoKit's levels): the socket's owner (the daemon's uid, checked with `SO_PEERCRED`)\nhas read-write access without a token. Any other client on the socket, and every client of the\noptional loopback TCP listener (`photosd --listen 127.0.0.1:PORT`), sends\n`Authorization: Bearer TOKEN` (`photos token create --access LEVEL`); without one, or with an\nunknown, revoked or expired one, it gets 401 with `WWW-Authenticate: Bearer`. A level too low\nfor the request is a 403: `read-only` never posts `/v1/changes` or `/v1/uploads`; `add-only`\nreads nothing (all but `/`, `/v1/health`, `/v1/version`, `/v1/openapi.json`, `POST /v1/uploads` and `POST /v1/changes` with\n`createAsset`, `createAlbum` and `addToAlbum` of new assets to new albums); `limited` sees and\nchanges only the assets of its albums, in every listing, object, resource, change stream and\nlive query (others are 404, as if absent; an asset's `albums` name only its albums; its change\nstream leaves out entries with nothing of its albums), sees no folders, no `/v1/status` and no `/metrics`.\nA `createAsset` with a server-side `path` is taken only from a read-write client on the Unix\nsocket, as that client (its `SO_PEERCRED` uid) may read, and with `move` remove, the file;\nevery other client sends the bytes to `POST /v1/uploads`. Paths are canonical: an empty\nsegment (`//`, a trailing `/`) or a `.` or `..` segment is a 404 at every level.\n",
    "summary": "A photo library's assets, albums, folders and change log, over HTTP/1.1 on a Unix socket.",
    "title": "photosd API",
    "version": "1"
  },
  "openapi": "3.1.0",
  "paths": {
    "/": {
      "get": {
        "description": "Open to every client that may use the API (any token's level).",
        "operationId": "index",
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Index"
                }
              }
            },
            "description": "An index of the API."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        },
        "summary": "What this API is, its version, and each of its operations."
      }
    },
    "/metrics": {
      "get": {
        "description": "Counters since photosd started: `photosd_files_seen_total` (files scans looked at; a file\nlooked at again counts again), `photosd_files_ingested_total`, `photosd_files_updated_total`,\n`photosd_files_moved_total`, `photosd_files_removed_total`, `photosd_files_rejected_total`,\n`photosd_hook_runs_total` and `photosd_hook_failures_total` (label `hook`); gauges\n`photosd_ingest_queue_depth` (changes waiting for the tree to settle) and\n`photosd_scan_queue_depth` (settled work waiting for the scanner); histograms\n`photosd_hook_run_duration_seconds` (label `hook`) and\n`photosd_http_request_duration_seconds` (labels `method`, `route`: the route's pattern,\n`status`; timed to the answer's head). Refused (403) to add-only and limited clients;\nover TCP, a scraper sends a token like any client.\n",
        "operationId": "metrics",
        "responses": {
          "200": {
            "content": {
              "text/plain; version=0.0.4; charset=utf-8": {
                "schema": {
                  "type": "string"
                }
              }
            },
            "description": "The metrics."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "The daemon's metrics, in Prometheus' text format: files, queues, hooks, request latencies."
      }
    },
    "/v1/albums": {
      "get": {
        "operationId": "listAlbums",
        "parameters": [
          {
            "$ref": "#/components/parameters/predicate"
          },
          {
            "$ref": "#/components/parameters/sort"
          },
          {
            "$ref": "#/components/parameters/limit"
          },
          {
            "description": "Only `album`s or only `smartAlbum`s (default both, albums first).",
            "in": "query",
            "name": "type",
            "schema": {
              "enum": [
                "album",
                "smartAlbum"
              ],
              "type": "string"
            }
          },
          {
            "$ref": "#/components/parameters/pageSize"
          },
          {
            "$ref": "#/components/parameters/offset"
          },
          {
            "$ref": "#/components/parameters/next"
          }
        ],
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "albums": {
                      "items": {
                        "$ref": "#/components/schemas/Collection"
                      },
                      "type": "array"
                    },
                    "next": {
                      "$ref": "#/components/schemas/Cursor"
                    }
                  },
                  "required": [
                    "albums"
                  ],
                  "type": "object"
                }
              },
              "application/x-ndjson": {
                "schema": {
                  "$ref": "#/components/schemas/Collection"
                }
              }
            },
            "description": "A page of the listing, or the whole listing as JSON Lines."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "Albums (user albums and the albums that mirror directories) and smart albums."
      }
    },
    "/v1/albums/{id}": {
      "get": {
        "operationId": "getAlbum",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          }
        ],
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Collection"
                }
              }
            },
            "description": "The album."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "One album by local identifier."
      }
    },
    "/v1/assets": {
      "get": {
        "operationId": "listAssets",
        "parameters": [
          {
            "$ref": "#/components/parameters/predicate"
          },
          {
            "$ref": "#/components/parameters/sort"
          },
          {
            "$ref": "#/components/parameters/limit"
          },
          {
            "in": "query",
            "name": "includeHidden",
            "schema": {
              "default": false,
              "type": "boolean"
            }
          },
          {
            "in": "query",
            "name": "includeAllBursts",
            "schema": {
              "default": false,
              "type": "boolean"
            }
          },
          {
            "description": "Only the assets of this album (a local identifier), in its order.",
            "in": "query",
            "name": "in",
            "schema": {
              "minLength": 1,
              "type": "string"
            }
          },
          {
            "$ref": "#/components/parameters/pageSize"
          },
          {
            "$ref": "#/components/parameters/offset"
          },
          {
            "$ref": "#/components/parameters/next"
          }
        ],
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "assets": {
                      "items": {
                        "$ref": "#/components/schemas/Asset"
                      },
                      "type": "array"
                    },
                    "next": {
                      "$ref": "#/components/schemas/Cursor"
                    }
                  },
                  "required": [
                    "assets"
                  ],
                  "type": "object"
                }
              },
              "application/x-ndjson": {
                "schema": {
                  "$ref": "#/components/schemas/Asset"
                }
              }
            },
            "description": "A page of the listing, or the whole listing as JSON Lines."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "Assets, as `PHAsset.fetchAssets(with:)` or `fetchAssets(in:)` with these options."
      }
    },
    "/v1/assets/{id}": {
      "get": {
        "operationId": "getAsset",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          }
        ],
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Asset"
                }
              }
            },
            "description": "The asset."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "One asset by local identifier (hidden and burst members included)."
      },
      "head": {
        "operationId": "headAsset",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          }
        ],
        "responses": {
          "200": {
            "description": "As GET, without the body."
          },
          "401": {
            "description": "As GET."
          },
          "403": {
            "description": "As GET."
          },
          "404": {
            "description": "As GET."
          },
          "503": {
            "description": "As GET."
          }
        },
        "summary": "GET's status and headers without the body."
      }
    },
    "/v1/assets/{id}/metadata": {
      "get": {
        "operationId": "getAssetMetadata",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          }
        ],
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AssetMetadata"
                }
              }
            },
            "description": "What the file states."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "422": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "The camera, lens and exposure read from the asset's first resource when asked (the library keeps make and model only). A key the file does not state is absent; a picture whose EXIF states nothing, or a video whose container states nothing, answers an empty camera."
      },
      "head": {
        "operationId": "headAssetMetadata",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          }
        ],
        "responses": {
          "200": {
            "description": "As GET, without the body."
          },
          "401": {
            "description": "As GET."
          },
          "403": {
            "description": "As GET."
          },
          "404": {
            "description": "As GET."
          },
          "422": {
            "description": "As GET."
          },
          "503": {
            "description": "As GET."
          }
        },
        "summary": "GET's status and headers without the body."
      }
    },
    "/v1/assets/{id}/original": {
      "get": {
        "operationId": "getOriginal",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          },
          {
            "$ref": "#/components/parameters/range"
          }
        ],
        "responses": {
          "200": {
            "$ref": "#/components/responses/File"
          },
          "206": {
            "$ref": "#/components/responses/File"
          },
          "304": {
            "description": "Unchanged since the ETag or date the request gave."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "416": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "The asset's original file (its first resource), read from where the library records it."
      },
      "head": {
        "operationId": "headOriginal",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          },
          {
            "$ref": "#/components/parameters/range"
          }
        ],
        "responses": {
          "200": {
            "description": "As GET, without the body."
          },
          "206": {
            "description": "As GET, without the body."
          },
          "304": {
            "description": "Unchanged since the ETag or date the request gave."
          },
          "401": {
            "description": "As GET."
          },
          "403": {
            "description": "As GET."
          },
          "404": {
            "description": "As GET."
          },
          "416": {
            "description": "As GET."
          },
          "503": {
            "description": "As GET."
          }
        },
        "summary": "GET's status and headers (Content-Length, ETag, Content-Range...) without the body; the file is not read."
      }
    },
    "/v1/assets/{id}/resources/{type}": {
      "get": {
        "operationId": "getResource",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          },
          {
            "in": "path",
            "name": "type",
            "required": true,
            "schema": {
              "type": "string"
            }
          },
          {
            "$ref": "#/components/parameters/range"
          }
        ],
        "responses": {
          "200": {
            "$ref": "#/components/responses/File"
          },
          "206": {
            "$ref": "#/components/responses/File"
          },
          "304": {
            "description": "Unchanged since the ETag or date the request gave."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "416": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "One of the asset's resources by type: photo, video, pairedVideo, alternatePhoto..."
      },
      "head": {
        "operationId": "headResource",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          },
          {
            "in": "path",
            "name": "type",
            "required": true,
            "schema": {
              "type": "string"
            }
          },
          {
            "$ref": "#/components/parameters/range"
          }
        ],
        "responses": {
          "200": {
            "description": "As GET, without the body."
          },
          "206": {
            "description": "As GET, without the body."
          },
          "304": {
            "description": "Unchanged since the ETag or date the request gave."
          },
          "401": {
            "description": "As GET."
          },
          "403": {
            "description": "As GET."
          },
          "404": {
            "description": "As GET."
          },
          "416": {
            "description": "As GET."
          },
          "503": {
            "description": "As GET."
          }
        },
        "summary": "GET's status and headers without the body; the file is not read."
      }
    },
    "/v1/assets/{id}/thumbnail": {
      "get": {
        "operationId": "getThumbnail",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          },
          {
            "description": "The box: `SIDE` or `WIDTHxHEIGHT`, 1 to 4096 each (default 256).",
            "in": "query",
            "name": "size",
            "schema": {
              "pattern": "^[0-9]{1,4}(x[0-9]{1,4})?$",
              "type": "string"
            }
          },
          {
            "description": "`fit` (default) fits inside the box; `fill` covers it, one side longer.",
            "in": "query",
            "name": "mode",
            "schema": {
              "enum": [
                "fit",
                "fill"
              ],
              "type": "string"
            }
          },
          {
            "in": "query",
            "name": "format",
            "schema": {
              "default": "jpeg",
              "enum": [
                "jpeg",
                "png",
                "webp"
              ],
              "type": "string"
            }
          },
          {
            "description": "ETags (a list, weak or not) or `*`: 304 when one names the answer's.",
            "in": "header",
            "name": "If-None-Match",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "content": {
              "image/jpeg": {
                "schema": {
                  "format": "binary",
                  "type": "string"
                }
              },
              "image/png": {
                "schema": {
                  "format": "binary",
                  "type": "string"
                }
              },
              "image/webp": {
                "schema": {
                  "format": "binary",
                  "type": "string"
                }
              }
            },
            "description": "The image."
          },
          "304": {
            "description": "Unchanged since the ETag the request gave."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "422": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "The asset's picture (a video's poster frame) scaled into a box, upright and in sRGB, through PHImageManager and its disk cache. ETag names the file as it is now and the request."
      },
      "head": {
        "operationId": "headThumbnail",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          },
          {
            "in": "query",
            "name": "size",
            "schema": {
              "pattern": "^[0-9]{1,4}(x[0-9]{1,4})?$",
              "type": "string"
            }
          },
          {
            "in": "query",
            "name": "mode",
            "schema": {
              "enum": [
                "fit",
                "fill"
              ],
              "type": "string"
            }
          },
          {
            "in": "query",
            "name": "format",
            "schema": {
              "default": "jpeg",
              "enum": [
                "jpeg",
                "png",
                "webp"
              ],
              "type": "string"
            }
          },
          {
            "in": "header",
            "name": "If-None-Match",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "As GET, without the body."
          },
          "304": {
            "description": "Unchanged since the ETag the request gave."
          },
          "400": {
            "description": "As GET."
          },
          "401": {
            "description": "As GET."
          },
          "403": {
            "description": "As GET."
          },
          "404": {
            "description": "As GET."
          },
          "422": {
            "description": "As GET."
          },
          "503": {
            "description": "As GET."
          }
        },
        "summary": "GET's status and headers without the body, Content-Length the image's (made, or read from the cache, as for GET; a matching If-None-Match is a 304 without a decode)."
      }
    },
    "/v1/changes": {
      "get": {
        "description": "NDJSON, one change-log entry per line, oldest first; or Server-Sent Events (`id:` the\ntoken, `data:` the entry) when the request accepts `text/event-stream`. Without `follow`\nthe answer ends at the newest entry. A followed SSE stream begins with an event of an\n`id:` alone, the token it starts after, which dispatches nothing: an EventSource that\nreconnects before any change came resumes there. A `Last-Event-ID` header (what an\nEventSource sends when it reconnects, to the URL it was opened with) resumes after that\ntoken, in place of `since`. A stream that falls behind the kept\nhistory ends with one error record, as does one whose token is revoked or expires (401).\nA token older than the kept history is a 410 with PhotoKit's 3105, never a gap.\n",
        "operationId": "changes",
        "parameters": [
          {
            "description": "Entries after this token (default 0, the start of the kept history).",
            "in": "query",
            "name": "since",
            "schema": {
              "format": "int64",
              "minimum": 0,
              "type": "integer"
            }
          },
          {
            "in": "query",
            "name": "follow",
            "schema": {
              "default": false,
              "type": "boolean"
            }
          }
        ],
        "responses": {
          "200": {
            "content": {
              "application/x-ndjson": {
                "schema": {
                  "$ref": "#/components/schemas/Change"
                }
              },
              "text/event-stream": {
                "schema": {
                  "$ref": "#/components/schemas/ServerSentEvent"
                }
              }
            },
            "description": "The entries."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "410": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "The change log after a token; with `follow`, each commit as it lands."
      },
      "post": {
        "description": "`{\"changes\": [OP, ...]}`, each OP an object with `op` and its fields (below). The batch is\none change block: all of it commits, or nothing does, and the library's files and the\nuser's are as they were. Objects are named by local identifier, or, when an earlier\noperation of the batch made them with `\"ref\": \"NAME\"`, as `\"$NAME\"` (PhotoKit's\nplaceholders). As in a change block, creations apply first, then edits in the order\ngiven, then deletions. Decoding is strict: an unknown `op` or field is a 400. `createAsset`\ntakes an `upload` (`POST /v1/uploads`) or, from a read-write client on the Unix socket\nonly, a `path` the client may read; the file is copied into the library's import folder\n(sparse files stay sparse); with `\"move\": true` it is removed from `path` only after the\ncommit that records the asset.\n\nThe answer names each created object's local identifier under its `ref` (or under the\noperation's position, `\"0\"`, `\"1\"`, ..., when it had none) and the commit's change token:\nits entry in `GET /v1/changes`.\n\nErrors carry PhotoKit's code where it has one: 400 malformed body or batch (a `$ref` no\nearlier operation made, a relative path); 404 with 3201 an unknown identifier; 409 with 3300\na change the library refuses (a smart or directory-backed album, a folder put inside\nitself); 422 with 3302 a file that is not media (or of the wrong type); 403 with 3310 a\n`path` that is not a regular file the client may read (and, to move, remove) or is the\nlibrary's own (one message whatever the reason: it never tells whether the path exists);\n403 a `path` from a client below read-write or over TCP; 404 an `upload` that is not the\nclient's or was taken; 413 a body over 1 MiB;\n503 with 3301 or 3114 the library cannot be written now (or with the code of the library\nfile's own failure, 3302 for a damaged page); 507 with 3305 a full disk.\n",
        "operationId": "applyChanges",
        "requestBody": {
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ChangeBatch"
              }
            }
          },
          "required": true
        },
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ChangeBatchResult"
                }
              }
            },
            "description": "The batch committed."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "409": {
            "$ref": "#/components/responses/Error"
          },
          "413": {
            "$ref": "#/components/responses/Error"
          },
          "422": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          },
          "507": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "A batch of change requests, applied atomically in one change block, as `performChanges` applies them."
      }
    },
    "/v1/days": {
      "get": {
        "description": "The assets `GET /v1/assets` lists with the same options and sort, cut into runs of one\ncalendar day in the listing's order: each run is the listing's positions `start` to\n`start + count - 1`, so `GET /v1/assets?...&offset=START&pageSize=COUNT` fetches its assets.\n`day` is the first ten characters of the assets' `creationDate` as their JSON writes it\n(the photo's own UTC offset, else the library's time zone); null for assets without a\ndate. Photos taken at different UTC offsets can interleave around midnight, so one day may\ncome in more than one run. Sorted by creation date only: newest first unless\n`sort=creationDate`. A limited client's index is of its albums' assets.\n",
        "operationId": "listDays",
        "parameters": [
          {
            "$ref": "#/components/parameters/predicate"
          },
          {
            "description": "`-creationDate` (newest first) or `creationDate`; any other sort is a 400.",
            "in": "query",
            "name": "sort",
            "schema": {
              "default": "-creationDate",
              "enum": [
                "-creationDate",
                "creationDate"
              ],
              "type": "string"
            }
          },
          {
            "in": "query",
            "name": "includeHidden",
            "schema": {
              "default": false,
              "type": "boolean"
            }
          },
          {
            "in": "query",
            "name": "includeAllBursts",
            "schema": {
              "default": false,
              "type": "boolean"
            }
          },
          {
            "description": "Only the assets of this album (a local identifier).",
            "in": "query",
            "name": "in",
            "schema": {
              "minLength": 1,
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DayIndex"
                }
              }
            },
            "description": "The runs of days, in the listing's order."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "The day index of an asset listing, what a timeline lays out before it fetches an asset."
      }
    },
    "/v1/folders": {
      "get": {
        "operationId": "listFolders",
        "parameters": [
          {
            "$ref": "#/components/parameters/predicate"
          },
          {
            "$ref": "#/components/parameters/sort"
          },
          {
            "$ref": "#/components/parameters/limit"
          },
          {
            "$ref": "#/components/parameters/pageSize"
          },
          {
            "$ref": "#/components/parameters/offset"
          },
          {
            "$ref": "#/components/parameters/next"
          }
        ],
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "folders": {
                      "items": {
                        "$ref": "#/components/schemas/Collection"
                      },
                      "type": "array"
                    },
                    "next": {
                      "$ref": "#/components/schemas/Cursor"
                    }
                  },
                  "required": [
                    "folders"
                  ],
                  "type": "object"
                }
              },
              "application/x-ndjson": {
                "schema": {
                  "$ref": "#/components/schemas/Collection"
                }
              }
            },
            "description": "A page of the listing, or the whole listing as JSON Lines."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "Folders (user folders and the folders that mirror directories)."
      }
    },
    "/v1/folders/{id}": {
      "get": {
        "operationId": "getFolder",
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          }
        ],
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Collection"
                }
              }
            },
            "description": "The folder."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "One folder by local identifier."
      }
    },
    "/v1/health": {
      "get": {
        "description": "200 while the library can be read and at least one root is followed (watched or polled):\n`ok`, or `starting` while the startup scan runs; `warnings` name the roots that are\noffline meanwhile. 503 with the reason in the error's message while the library cannot\nbe read or is unavailable (scans fail: a full disk, a lock, a damaged file), or while no\nroot is followed (every one offline: code 3114, `libraryVolumeOffline`; the listings still\nanswer). Open to every client that may use the API; roots\nare named only to clients that may read `/v1/status` (others are told \"a root is offline\").\n",
        "operationId": "health",
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Health"
                }
              }
            },
            "description": "photosd serves."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "For monitors, cheaply (no listing, no scan) whether photosd serves."
      }
    },
    "/v1/hooks/{name}/resume": {
      "post": {
        "description": "The hook's failures are forgotten and the daemon runs it again from its cursor. Answers the\nhook's status as `GET /v1/status` lists it. For read-write clients; 404 for a hook that has\nnever run in this library.\n",
        "operationId": "resumeHook",
        "parameters": [
          {
            "description": "The hook's name, as in the daemon's config.",
            "in": "path",
            "name": "name",
            "required": true,
            "schema": {
              "minLength": 1,
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/HookStatus"
                }
              }
            },
            "description": "The hook's status after resuming."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "Unparks a hook, as `photos hooks resume NAME` does."
      }
    },
    "/v1/imports": {
      "get": {
        "operationId": "listImports",
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ImportListing"
                }
              }
            },
            "description": "The imports, in the configuration's order (none when it has no `[[imports]]`)."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            },
            "description": "No status yet (the startup crawl runs), as for `/v1/status`."
          }
        },
        "summary": "What `photos imports status` shows: each watched import folder (`[[imports]]`) and where it stands."
      }
    },
    "/v1/logins": {
      "post": {
        "description": "Makes an access token for a browser session (`read-only` by default, `read-write`, or\n`limited` to `albums`; never add-only) that lasts `expiresIn` seconds (30 days by\ndefault), and a URL on photosd's loopback TCP listener that works once, for 5 minutes: it\nsets the session cookie (`HttpOnly`, `SameSite=Strict`) and opens the timeline. What\n`photos open` asks for. For read-write clients, and not with a session cookie. 409 when\nphotosd has no TCP listener (`listen` in the config) for a browser to reach.\n",
        "operationId": "createLogin",
        "requestBody": {
          "content": {
            "application/json": {
              "schema": {
                "additionalProperties": false,
                "properties": {
                  "access": {
                    "enum": [
                      "read-only",
                      "read-write",
                      "limited"
                    ],
                    "type": "string"
                  },
                  "albums": {
                    "description": "A limited session's albums.",
                    "items": {
                      "minLength": 1,
                      "type": "string"
                    },
                    "type": "array"
                  },
                  "expiresIn": {
                    "description": "Seconds the session lasts.",
                    "maximum": 31622400,
                    "minimum": 60,
                    "type": "number"
                  },
                  "name": {
                    "description": "The token's name in photos token list.",
                    "type": "string"
                  }
                },
                "type": "object"
              }
            }
          },
          "required": false
        },
        "responses": {
          "201": {
            "content": {
              "application/json": {
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "access": {
                      "enum": [
                        "read-only",
                        "read-write",
                        "limited"
                      ],
                      "type": "string"
                    },
                    "expiresAt": {
                      "format": "date-time",
                      "type": "string"
                    },
                    "token": {
                      "description": "The token's public name (photos token revoke ends the session).",
                      "type": "string"
                    },
                    "url": {
                      "description": "Works once, until urlExpiresAt.",
                      "type": "string"
                    },
                    "urlExpiresAt": {
                      "format": "date-time",
                      "type": "string"
                    }
                  },
                  "required": [
                    "url",
                    "token",
                    "access",
                    "expiresAt",
                    "urlExpiresAt"
                  ],
                  "type": "object"
                }
              }
            },
            "description": "The login URL and the session's token."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "409": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "A one-time URL that logs a browser into the web page, with a new token of the access asked."
      }
    },
    "/v1/openapi.json": {
      "get": {
        "description": "Open to every client that may use the API.",
        "operationId": "openapi",
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "required": [
                    "openapi",
                    "info",
                    "paths"
                  ],
                  "type": "object"
                }
              }
            },
            "description": "The OpenAPI document."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        },
        "summary": "This document, as JSON."
      }
    },
    "/v1/queries": {
      "post": {
        "description": "The body holds fetch options; `of` says what is fetched: `assets` (the default, with the\noptions of GET /v1/assets), `albums` (those of GET /v1/albums: without `type` the regular\nalbums, then the smart albums, as that listing gives them, followed as one list) or\n`folders` (those of GET /v1/folders); a field the kind does not take is a 400. The answer is one stream (NDJSON, or SSE when the client\naccepts text/event-stream): first `{\"initial\": {\"assets\", \"count\", \"token\"}}`, then per\nchange `{\"token\", \"count\", \"removed\", \"inserted\", \"moves\", \"changed\"}` or `{\"token\",\n\"reset\": {\"assets\", \"count\"}}`; for albums the objects are `albums` and placed ones\n`album`, for folders `folders` and `folder`. A limited client follows only its albums and\nis refused folders (403). `removed` and `moves[].from` are positions before the\nchange; `inserted`, `moves[].to` and `changed` are positions after it: drop the removed and\nmoved-from objects, put the inserted and moved ones at their positions, the others keep\ntheir order around them, then replace the changed ones. Change streams and live queries\ncount together against the bound on open streams (64).\n",
        "operationId": "liveQuery",
        "requestBody": {
          "content": {
            "application/json": {
              "schema": {
                "additionalProperties": false,
                "properties": {
                  "in": {
                    "description": "Assets only: an album's identifier.",
                    "minLength": 1,
                    "type": "string"
                  },
                  "includeAllBursts": {
                    "description": "Assets only.",
                    "type": "boolean"
                  },
                  "includeHidden": {
                    "description": "Assets only.",
                    "type": "boolean"
                  },
                  "limit": {
                    "minimum": 0,
                    "type": "integer"
                  },
                  "of": {
                    "description": "What the query fetches (default assets).",
                    "enum": [
                      "assets",
                      "albums",
                      "folders"
                    ],
                    "type": "string"
                  },
                  "predicate": {
                    "minLength": 1,
                    "type": "string"
                  },
                  "sort": {
                    "items": {
                      "type": "string"
                    },
                    "type": "array"
                  },
                  "type": {
                    "description": "Albums only: only `album`s or only `smartAlbum`s (default both, albums first).",
                    "enum": [
                      "album",
                      "smartAlbum"
                    ],
                    "type": "string"
                  }
                },
                "type": "object"
              }
            }
          },
          "required": true
        },
        "responses": {
          "200": {
            "content": {
              "application/x-ndjson": {
                "schema": {
                  "$ref": "#/components/schemas/LiveQueryRecord"
                }
              },
              "text/event-stream": {
                "schema": {
                  "$ref": "#/components/schemas/ServerSentEvent"
                }
              }
            },
            "description": "The stream of records."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "413": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "A live query: the fetch's result, then PhotoKit's change details for each change that touches it."
      }
    },
    "/v1/rejected": {
      "get": {
        "description": "By path, `limit` of them from the `offset`-th, and how many there are in all. A file is read\nagain when it changes (its size or modification time). For read-only and read-write clients:\nthe paths are anywhere under the roots, not in a limited client's albums (403).\n",
        "operationId": "listRejected",
        "parameters": [
          {
            "description": "The 0-based position of the first file. Past the end, no files.",
            "in": "query",
            "name": "offset",
            "schema": {
              "default": 0,
              "minimum": 0,
              "type": "integer"
            }
          },
          {
            "description": "The most files in the answer.",
            "in": "query",
            "name": "limit",
            "schema": {
              "default": 1000,
              "maximum": 10000,
              "minimum": 1,
              "type": "integer"
            }
          }
        ],
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RejectedListing"
                }
              }
            },
            "description": "The window of rejected files asked for, and their count."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "What `photos rejected` lists: the files that look like photos or videos but could not be read, and why."
      }
    },
    "/v1/status": {
      "get": {
        "operationId": "status",
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Status"
                }
              }
            },
            "description": "The daemon's status."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            },
            "description": "No status yet: while the startup crawl runs, the message says how far it is, as `photos status` does (\"photosd is starting: startup crawl: 120 of 300 directories, …\")."
          }
        },
        "summary": "What `photos status` shows: roots, watch budget, queue, totals, errors, hooks."
      }
    },
    "/v1/trash": {
      "get": {
        "description": "The assets deleted under roots with `write = \"files\"`, whose files wait in the\nfreedesktop.org Trash until they are restored, emptied, or erased `trash_days` after their\ndeletion (photosd erases those once an hour). Each element is what `photos trash list\n--json` writes on a line. The same assets are the members of the Recently Deleted smart\nalbum (`GET /v1/assets?in=` its identifier, subtype `smartAlbumRecentlyDeleted`). For\nread-only and read-write clients; a limited client's albums hold no deleted asset (403).\n",
        "operationId": "trash",
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "assets": {
                      "items": {
                        "$ref": "#/components/schemas/TrashedAsset"
                      },
                      "type": "array"
                    }
                  },
                  "required": [
                    "assets"
                  ],
                  "type": "object"
                }
              }
            },
            "description": "The trashed assets."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "Recently Deleted, the latest deletion first, each asset with its files and where each is in the Trash."
      }
    },
    "/v1/trash/empty": {
      "post": {
        "description": "Without `identifiers` (or with no body) every asset of Recently Deleted is erased; a\nfield other than `identifiers` and `dryRun` is a 400, never skipped. Only\nTrash entries that are still the files the library put there are erased; an asset whose\nfiles another tool took out of the Trash is forgotten with none. With `\"dryRun\": true` the\nanswer says which files would be erased, and nothing is. For read-write clients. 404 with\n3201 an identifier that is not in Recently Deleted.\n",
        "operationId": "emptyTrash",
        "requestBody": {
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/TrashRequest"
              }
            }
          },
          "required": false
        },
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TrashResult"
                }
              }
            },
            "description": "The assets erased (or that would be), with their files' paths in the Trash."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "413": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "Erases deleted assets for good, with their files in the Trash (those named, or every one)."
      }
    },
    "/v1/trash/restore": {
      "post": {
        "description": "Each file is moved from the Trash to where it was, never over another file; a file already\nback (restored by another tool) stays where it is. With `\"dryRun\": true` the answer says\nwhich files would go back, and nothing moves. For read-write clients. An identifier of an\nasset that is in the library, not in Recently Deleted (restored already: the same request\nsent again), is listed in `alreadyRestored` and is no error. 404 with 3201 an identifier\nthat is neither in Recently Deleted nor in the library; 403 with 3310 a file that cannot go\nback (its path taken), and nothing moves. A path taken by another program after that check\nkeeps its asset alone in Recently Deleted: the others are restored, and the answer is 403\nwith the error of the first such asset and `result`, the TrashResult with every one of them\nin `failed`.\n",
        "operationId": "restoreTrash",
        "requestBody": {
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/TrashRequest"
              }
            }
          },
          "required": true
        },
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TrashResult"
                }
              }
            },
            "description": "The assets restored (or that would be), with the paths their files went back to."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "content": {
              "application/json": {
                "schema": {
                  "oneOf": [
                    {
                      "$ref": "#/components/schemas/Error"
                    },
                    {
                      "$ref": "#/components/schemas/TrashRestoreFailure"
                    }
                  ]
                }
              }
            },
            "description": "A file that cannot go back (or a client that may not restore); with `result` when others were restored."
          },
          "404": {
            "$ref": "#/components/responses/Error"
          },
          "413": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          },
          "503": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "Brings deleted assets back from the Trash, with their identifiers, favorites and albums."
      }
    },
    "/v1/uploads": {
      "post": {
        "description": "The body is the file (streamed to the library's disk, at most 1 GiB unless photosd's\n`--max-upload BYTES` says otherwise; past it 413, and nothing is kept). The answer's\n`upload` is then given to `{\"op\": \"createAsset\", \"upload\": ID}` in `POST /v1/changes`. An\nupload belongs to the client that sent it (its token and level), serves one asset, and is\nremoved if no batch takes it within an hour; at most 64 wait at once (429 past that). For\nevery client that may create assets: read-write, add-only, limited.\n",
        "operationId": "upload",
        "parameters": [
          {
            "description": "The asset's original filename (1 to 255 bytes).",
            "in": "query",
            "name": "filename",
            "required": false,
            "schema": {
              "maxLength": 255,
              "minLength": 1,
              "type": "string"
            }
          }
        ],
        "requestBody": {
          "content": {
            "application/octet-stream": {
              "schema": {
                "format": "binary",
                "type": "string"
              }
            }
          },
          "required": true
        },
        "responses": {
          "201": {
            "content": {
              "application/json": {
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "size": {
                      "description": "Bytes received.",
                      "minimum": 0,
                      "type": "integer"
                    },
                    "upload": {
                      "description": "The identifier createAsset takes.",
                      "type": "string"
                    }
                  },
                  "required": [
                    "upload",
                    "size"
                  ],
                  "type": "object"
                }
              }
            },
            "description": "The bytes are kept."
          },
          "400": {
            "$ref": "#/components/responses/Error"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Error"
          },
          "413": {
            "$ref": "#/components/responses/Error"
          },
          "429": {
            "$ref": "#/components/responses/Error"
          },
          "500": {
            "$ref": "#/components/responses/Error"
          },
          "507": {
            "$ref": "#/components/responses/Error"
          }
        },
        "summary": "A file's bytes, kept for one `createAsset` of this client's."
      }
    },
    "/v1/version": {
      "get": {
        "description": "Open to every client that may use the API.",
        "operationId": "version",
        "responses": {
          "200": {
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Version"
                }
              }
            },
            "description": "The versions."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        },
        "summary": "Which photosd answers: its version (as `photosd --version`) and the API's."
      }
    }
  },
  "security": [
    {},
    {
      "bearer": []
    }
  ],
  "servers": [
    {
      "description": "the Unix socket (any host name)",
      "url": "http://photosd"
    },
    {
      "description": "the loopback TCP listener, when photosd has one (every request with a token)",
      "url": "http://127.0.0.1:{port}",
      "variables": {
        "port": {
          "default": "8421"
        }
      }
    }
  ]
}
"""##
}
