import Photos
