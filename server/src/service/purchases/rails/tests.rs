use super::*;
use crate::settings::Secret;

fn settings(rail: Option<&str>, facilitator_url: Option<&str>) -> Settings {
    let mut settings = Settings::default();
    settings.payments.rail = rail.map(str::to_owned);
    settings.payments.facilitator_url = facilitator_url.map(Secret::new);
    settings
}

fn chosen(rail: Option<&str>, facilitator_url: Option<&str>) -> Result<&'static str, RailError> {
    let rails = Rails::from_settings(&settings(rail, facilitator_url), REGISTERED)?;
    Ok(rails.chosen_name())
}

#[test]
fn unset_it_is_the_house_or_the_facilitator_whose_url_is_set() {
    assert_eq!(chosen(None, None).unwrap(), "house");
    assert_eq!(
        chosen(None, Some("http://127.0.0.1:1")).unwrap(),
        "facilitator"
    );
}

#[test]
fn each_rail_is_chosen_by_name_with_its_settings() {
    assert_eq!(chosen(Some("house"), None).unwrap(), "house");
    assert_eq!(
        chosen(Some("facilitator"), Some("http://127.0.0.1:1")).unwrap(),
        "facilitator"
    );
}

#[test]
fn contradictory_settings_stop_the_start_naming_both() {
    let error = chosen(Some("house"), Some("http://127.0.0.1:1")).unwrap_err();
    assert!(matches!(error, RailError::Contradiction { .. }), "{error}");
    let message = error.to_string();
    assert!(message.contains("payments.rail = \"house\""), "{message}");
    assert!(message.contains("payments.facilitator_url"), "{message}");

    let error = chosen(Some("facilitator"), None).unwrap_err();
    assert!(matches!(error, RailError::Unconfigured { .. }), "{error}");
    assert!(error.to_string().contains("payments.facilitator_url"));
}

#[test]
fn an_unknown_rail_stops_the_start_listing_the_known_ones() {
    let error = chosen(Some("carrier-pigeon"), None).unwrap_err();
    assert!(matches!(error, RailError::Unknown { .. }), "{error}");
    assert!(error.to_string().contains("house, facilitator"), "{error}");
}

#[test]
fn an_open_payment_goes_to_the_rail_that_recorded_it() {
    let facilitated =
        Rails::from_settings(&settings(None, Some("http://127.0.0.1:1")), REGISTERED).unwrap();
    // The house needs no settings: its payments are resumed whichever rail is chosen.
    assert!(facilitated.recorded("house").is_some());
    assert!(facilitated.recorded("facilitator").is_some());
    let house = Rails::from_settings(&settings(None, None), REGISTERED).unwrap();
    assert!(house.recorded("house").is_some());
    assert!(house.recorded("facilitator").is_none());
    assert!(house.recorded("sketch").is_none());
}

#[test]
fn two_rails_under_one_name_stop_the_start() {
    let imposter = RailEntry {
        build: |_| Ok(Some(Box::new(HouseRail))),
        ..facilitated::ENTRY
    };
    for registry in [
        vec![house::ENTRY, facilitated::ENTRY, imposter],
        vec![imposter, facilitated::ENTRY],
    ] {
        let error = Rails::from_settings(&settings(None, None), &registry)
            .err()
            .expect("a registry with a name twice is refused");
        assert!(
            matches!(error, RailError::Duplicate("facilitator")),
            "{error}"
        );
    }
}
