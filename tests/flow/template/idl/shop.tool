/// A tiny shop.
category shop;

/// Price of an item, in cents.
tool price {
    timing sync
    request {
        /// Item name.
        item: string,
    }
    response {
        /// Price in cents.
        cents: u64,
    }
    errors ShopError
}

/// Errors from the shop.
error ShopError {
    /// No such item.
    unknown_item {
        /// The item asked for.
        item: string,
    },
}
