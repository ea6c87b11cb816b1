/// Operations on arrays kept sorted by the UTF-8 bytes of a string key, one element per key.
enum SortedByKey {
    /// Where a key is, or where it would be inserted.
    struct Position {
        var index: Int
        var isPresent: Bool
    }

    static func search<Element>(_ elements: [Element], for key: String, key keyOf: (Element) -> String) -> Position {
        var low = 0
        var high = elements.count
        while low < high {
            let middle = low + (high - low) / 2
            let order = keyOf(elements[middle]).compareUTF8(key)
            if order == 0 { return Position(index: middle, isPresent: true) }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return Position(index: low, isPresent: false)
    }

    /// Sorts by key and keeps the preferred element of each run of equal keys.
    static func canonicalized<Element>(
        _ elements: [Element],
        key keyOf: (Element) -> String,
        preferred: (Element, Element) -> Element
    ) -> [Element] {
        guard elements.count > 1 else { return elements }
        let sorted = elements.sorted { keyOf($0).compareUTF8(keyOf($1)) < 0 }
        var result: [Element] = []
        result.reserveCapacity(sorted.count)
        for element in sorted {
            if let last = result.last, keyOf(last).compareUTF8(keyOf(element)) == 0 {
                result[result.count - 1] = preferred(last, element)
            } else {
                result.append(element)
            }
        }
        return result
    }

    /// The union of two sorted arrays; where both hold a key, the preferred element.
    static func merged<Element>(
        _ lhs: [Element],
        _ rhs: [Element],
        key keyOf: (Element) -> String,
        preferred: (Element, Element) -> Element
    ) -> [Element] {
        if rhs.isEmpty { return lhs }
        if lhs.isEmpty { return rhs }
        var result: [Element] = []
        result.reserveCapacity(lhs.count + rhs.count)
        var left = 0
        var right = 0
        while left < lhs.count, right < rhs.count {
            let order = keyOf(lhs[left]).compareUTF8(keyOf(rhs[right]))
            if order < 0 {
                result.append(lhs[left])
                left += 1
            } else if order > 0 {
                result.append(rhs[right])
                right += 1
            } else {
                result.append(preferred(lhs[left], rhs[right]))
                left += 1
                right += 1
            }
        }
        result.append(contentsOf: lhs[left...])
        result.append(contentsOf: rhs[right...])
        return result
    }
}
