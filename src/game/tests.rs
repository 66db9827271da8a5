use super::*;

#[test]
fn header_fields_round_trip_and_impossible_ones_are_refused() {
    for spec in [
        Spec::Us75 {
            star: StarRule::Off,
        },
        Spec::Us75 { star: StarRule::On },
        Spec::Uk90 { rules: Rules::Uk },
        Spec::Uk90 { rules: Rules::Es },
        Spec::Us80,
        Spec::Tickets90 {
            rules: Rules::Es,
            loose: false,
        },
        Spec::Tickets90 {
            rules: Rules::Uk,
            loose: true,
        },
    ] {
        let (g, r, f) = spec.header_fields();
        assert_eq!(Spec::from_header(g, r, f), Ok(spec));
    }
    assert_eq!(Spec::from_header(90, 7, 0), Err(FieldError::Rules90(7)));
    assert_eq!(Spec::from_header(90, 0, 1), Err(FieldError::Flags90(1)));
    assert_eq!(Spec::from_header(90, 0, 4), Err(FieldError::Flags90(4)));
    assert_eq!(Spec::from_header(75, 1, 0), Err(FieldError::Rules75(1)));
    assert_eq!(Spec::from_header(75, 0, 2), Err(FieldError::Flags(2)));
    assert_eq!(Spec::from_header(81, 0, 0), Err(FieldError::Game(81)));
    assert_eq!(Spec::from_header(80, 1, 0), Err(FieldError::Fields80(1, 0)));
    assert!(FieldError::Fields80(1, 0)
        .to_string()
        .contains("80-ball header"));
}

#[test]
fn a_choice_says_what_does_not_fit() {
    assert_eq!(
        Spec::choose("90", None, true),
        Err(ChoiceError::StarNotForGame("90-ball"))
    );
    assert_eq!(
        Spec::choose("75", Some("es"), false),
        Err(ChoiceError::RulesNotForGame)
    );
    assert_eq!(
        Spec::choose("90", None, false),
        Ok(Spec::Uk90 { rules: Rules::Uk })
    );
    assert_eq!(Spec::choose("80", None, false), Ok(Spec::Us80));
    assert_eq!(
        Spec::choose("80", None, true),
        Err(ChoiceError::StarNotForGame("80-ball"))
    );
    assert_eq!(
        Spec::choose("90", Some("fr"), false),
        Err(ChoiceError::UnknownRules("fr".into()))
    );
    assert_eq!(
        Spec::choose("76", None, false),
        Err(ChoiceError::UnknownGame("76".into()))
    );
}

#[test]
fn face_numbers_and_records_agree() {
    for game in Spec::GAMES {
        let spec = Spec::named(game).unwrap();
        let (rows, cols) = spec.face_shape();
        assert!(rows * cols <= MAX_FACE_CELLS);
        for record in [1u64, 2, 999] {
            for t in 0..spec.faces() {
                let n = spec.face_number(record, t);
                assert_eq!(spec.record_of(n), (record, t));
            }
        }
    }
    assert_eq!(Spec::named("90").unwrap().face_number(12, 3), 70);
}
