//! A user's crate: one catalogue, one service.

toolwright::include_tools!();

struct Shop;

#[toolwright::tools]
impl Shop {
    #[tool]
    fn price(&self, request: PriceRequest) -> Result<PriceResponse, ShopError> {
        match request.item.as_str() {
            "apple" => Ok(PriceResponse { cents: 40 }),
            _ => Err(ShopError::UnknownItem { item: request.item }),
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let dispatcher = toolwright::Dispatcher::new(Shop);
    for item in ["apple", "pear"] {
        let request = ToolRequest::Price(PriceRequest { item: item.into() });
        let bytes = toolwright::codec::to_msgpack(&request).expect("encodes");
        let reply = dispatcher.call_msgpack(&bytes).await;
        let envelope: toolwright::ResponseEnvelope<ToolResponse> =
            toolwright::codec::from_msgpack(&reply, Default::default()).expect("decodes");
        println!("{item}: {envelope:?}");
    }
}
