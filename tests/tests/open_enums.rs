//! Open string enums (`open-enums`): an unknown value is kept as `Other`, written back exactly
//! as read, and reported by `validate()`; the same shape with the option off rejects it.

use fixture_types::closed_enums::ClosedShipment;
use fixture_types::open_enums::{Shipment, ShipmentCarriersItem, ShipmentState};
use schemac_runtime::Validate;

const UNKNOWN: &str = r#"{"state":"returned","carriers":["dhl","fedex","caf\u00e9 \"x\""]}"#;

#[test]
fn an_unknown_value_round_trips_byte_exact() {
    let shipment: Shipment = schemac_runtime::from_str(UNKNOWN).unwrap();
    assert_eq!(shipment.state, ShipmentState::Other2("returned".to_owned()));
    assert_eq!(shipment.carriers.as_ref().unwrap()[1], ShipmentCarriersItem::Other("fedex".to_owned()));
    assert!(!shipment.state.is_known());
    // Written back as read, apart from the escape serde_json reads as the character.
    let written = serde_json::to_string(&shipment).unwrap();
    assert_eq!(written, r#"{"state":"returned","carriers":["dhl","fedex","café \"x\""]}"#);
    let plain = r#"{"state":"returned","carriers":["dhl","fedex"]}"#;
    assert_eq!(serde_json::to_string(&schemac_runtime::from_str::<Shipment>(plain).unwrap()).unwrap(), plain);
    // A listed value named like the fallback is a value, not the fallback.
    let other: Shipment = schemac_runtime::from_str(r#"{"state":"Other"}"#).unwrap();
    assert_eq!(other.state, ShipmentState::Other);
}

#[test]
fn validate_reports_what_the_schema_rejects() {
    let shipment: Shipment = schemac_runtime::from_str(UNKNOWN).unwrap();
    let errors = shipment.validate().unwrap_err();
    let found: Vec<(&str, &str)> = errors.iter().map(|e| (e.pointer(), e.keyword())).collect();
    assert_eq!(found, [("/state", "enum"), ("/carriers/1", "enum"), ("/carriers/2", "enum")], "{errors}");
    assert_eq!(errors.iter().next().unwrap().message(), r#""returned" is not one of "pending", "shipped", "Other""#);
    assert!(Shipment::builder().state("returned").build().is_err());
    assert!(Shipment::builder().state("shipped").build().is_ok());
}

#[test]
fn with_the_option_off_an_unknown_value_is_rejected() {
    let error = schemac_runtime::from_str::<ClosedShipment>(UNKNOWN).unwrap_err();
    assert_eq!(error.pointer(), "/state");
    assert!(schemac_runtime::from_str::<ClosedShipment>(r#"{"state":"shipped"}"#).is_ok());
}
