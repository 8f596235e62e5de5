import Foundation
import PhotosCore

/// How a fetch result changed: what was removed, inserted, changed and moved, with PhotoKit's
/// ordering rules, so a collection view can be updated in one batch.
///
/// - `removedIndexes` are positions in ``fetchResultBeforeChanges``; apply them first.
/// - `insertedIndexes` are positions in ``fetchResultAfterChanges``; apply them second.
/// - `changedIndexes` are positions in ``fetchResultAfterChanges`` (reload them in a second batch,
///   as Apple advises, since UIKit reads reloads in before-coordinates).
/// - ``enumerateMoves(_:)`` gives `(from, to)`: `from` in the before result, `to` in the after one.
///
/// ```swift
/// let details = PHFetchResultChangeDetails(from: before, to: after, changedObjects: edited)
/// collectionView.performBatchUpdates {
///     collectionView.deleteItems(at: details.removedIndexes!.map { IndexPath(item: $0, section: 0) })
///     collectionView.insertItems(at: details.insertedIndexes!.map { IndexPath(item: $0, section: 0) })
///     details.enumerateMoves { collectionView.moveItem(at: [0, $0], to: [0, $1]) }
/// }
/// ```
public final class PHFetchResultChangeDetails<ObjectType: AnyObject>: NSObject, Sendable {
    /// The result the details start from.
    public let fetchResultBeforeChanges: PHFetchResult<ObjectType>
    /// The result as it is now: keep it for the next change.
    public let fetchResultAfterChanges: PHFetchResult<ObjectType>
    /// False when only ``fetchResultAfterChanges`` is given (the fetch did not want incremental
    /// details): reload everything from it.
    public let hasIncrementalChanges: Bool
    /// Positions in the before result of the objects that left it.
    public let removedIndexes: IndexSet?
    /// Positions in the after result of the objects that arrived.
    public let insertedIndexes: IndexSet?
    /// Positions in the after result of the objects that stayed and changed.
    public let changedIndexes: IndexSet?
    private let moves: [(from: Int, to: Int)]

    /// The details between any two fetch results of the same kind; `changedObjects` are the objects
    /// whose content or properties changed.
    public convenience init(
        from fromResult: PHFetchResult<ObjectType>, to toResult: PHFetchResult<ObjectType>, changedObjects: [ObjectType]
    ) {
        self.init(
            from: fromResult, to: toResult, changedIdentifiers: Set(changedObjects.map(Self.identifier)),
            changedRows: Set(changedObjects.compactMap { ($0 as? PHObject)?.rowID }), incremental: true)
    }

    /// Details diffing the two results in full.
    convenience init(
        from fromResult: PHFetchResult<ObjectType>, to toResult: PHFetchResult<ObjectType>,
        changedIdentifiers: Set<String>, changedRows: Set<Int64>, incremental: Bool
    ) {
        guard incremental else {
            self.init(from: fromResult, to: toResult, diff: OrderedDiff<Int64>?.none)
            return
        }
        // Row ids when both results have them (no object is loaded), identifiers otherwise.
        if case .rows(let old, _) = fromResult.storage, case .rows(let new, _) = toResult.storage {
            // The same objects in the same order: only the changed ones, found in one pass.
            let diff =
                old == new
                ? OrderedDiff(unmoved: new, changed: changedRows)
                : OrderedDiff(from: old, to: new, changed: changedRows)
            self.init(from: fromResult, to: toResult, diff: diff)
        } else {
            let diff = OrderedDiff(
                from: fromResult.map(Self.identifier), to: toResult.map(Self.identifier),
                changed: changedIdentifiers)
            self.init(from: fromResult, to: toResult, diff: diff)
        }
    }

    /// What the diff compares objects by: a PhotoKit object's local identifier, else the instance's
    /// address (the library's results hold only PhotoKit objects; this serves other `ObjectType`s).
    private static func identifier(_ object: ObjectType) -> String {
        (object as? PHObject)?.localIdentifier ?? String(describing: ObjectIdentifier(object))
    }

    /// Details from a diff already computed (nil: not incremental).
    init<Element>(
        from fromResult: PHFetchResult<ObjectType>, to toResult: PHFetchResult<ObjectType>, diff: OrderedDiff<Element>?
    ) {
        fetchResultBeforeChanges = fromResult
        fetchResultAfterChanges = toResult
        hasIncrementalChanges = diff != nil
        removedIndexes = diff?.removedIndexes
        insertedIndexes = diff?.insertedIndexes
        changedIndexes = diff?.changedIndexes
        moves = diff?.moves ?? []
        super.init()
    }

    /// The objects that left, parallel to ``removedIndexes`` (deleted ones as they last were).
    public var removedObjects: [ObjectType] { removedIndexes.map { fetchResultBeforeChanges.objects(at: $0) } ?? [] }
    /// The objects that arrived, parallel to ``insertedIndexes``.
    public var insertedObjects: [ObjectType] { insertedIndexes.map { fetchResultAfterChanges.objects(at: $0) } ?? [] }
    /// The objects that changed, parallel to ``changedIndexes``.
    public var changedObjects: [ObjectType] { changedIndexes.map { fetchResultAfterChanges.objects(at: $0) } ?? [] }

    /// Whether any object moved.
    public var hasMoves: Bool { !moves.isEmpty }

    /// Calls `handler(fromIndex, toIndex)` for each move, `fromIndex` in the before result and
    /// `toIndex` in the after one.
    public func enumerateMoves(_ handler: (Int, Int) -> Void) {
        for move in moves { handler(move.from, move.to) }
    }
}
