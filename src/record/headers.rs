//! The header vocabulary: the well-known facts about a game (its players,
//! event, place, times, time control, opening, handicap) as [`Field`]s,
//! and the keys each family of formats writes them under, in one table
//! ([`SPELLINGS`]). A record keeps its keys as written (`N+`, `先手`,
//! `Sente`); [`Field::of_key`] says which field a key means, and the
//! writers name a header by [`written_key`].
//!
//! The table is here, and not with each format, because the keys are the
//! vocabulary itself: `Record::field` must find `先手` under `N+` without
//! knowing any format, and flipping a record must swap `N+` and `N-` as it
//! swaps `先手` and `後手`. Each writer only picks its column.

/// A fact about a game that several formats give a header for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The player of Black (先手; 下手 in handicap games, who receives it).
    BlackPlayer,
    /// The player of White (後手; 上手 in handicap games, who gives it).
    WhitePlayer,
    /// Black's short name (先手省略名).
    BlackShortName,
    /// White's short name (後手省略名).
    WhiteShortName,
    /// The event or tournament (棋戦).
    Event,
    /// Where the game was played (場所).
    Site,
    /// When the game started (開始日時).
    StartTime,
    /// When the game ended (終了日時).
    EndTime,
    /// The time each player had (持ち時間), as the record writes it.
    TimeControl,
    /// The opening (戦型).
    Opening,
    /// The name of the starting position (手合割): the start says it too.
    Handicap,
    /// The title of the game or problem (表題).
    Title,
    /// The author of a problem (作者).
    Author,
    /// Where the record was published (出典).
    Source,
}

/// A family of formats that spells header keys alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyStyle {
    /// Kakinoki's Japanese keys: KIF, KI2 and the `header` of JKF.
    Japanese,
    /// CSA's `N+`, `N-` and `$KEY` lines.
    Csa,
    /// The tags of Western (PGN-like) notation.
    Western,
}

/// One row of [`SPELLINGS`]: a field and its keys in each style. The
/// first key of a style is the one its writers write; the others are
/// read as the field too, and a writer keeps them as written (下手 stays
/// 下手 in KIF, `$TIME` stays `$TIME` in CSA). An empty list: the style
/// has no key for the field, and its writers keep the key they were
/// given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spellings {
    /// The field.
    pub field: Field,
    /// Its keys in KIF, KI2 and JKF.
    pub japanese: &'static [&'static str],
    /// Its keys in CSA.
    pub csa: &'static [&'static str],
    /// Its tags in Western notation.
    pub western: &'static [&'static str],
}

impl Spellings {
    /// The keys of `style`.
    pub fn keys(&self, style: KeyStyle) -> &'static [&'static str] {
        match style {
            KeyStyle::Japanese => self.japanese,
            KeyStyle::Csa => self.csa,
            KeyStyle::Western => self.western,
        }
    }
}

/// Every field and its keys, in the order of [`Field`]. The two sides'
/// rows list their keys in the same order, so that the key of one side
/// names the other at the same place (先手 and 後手, 下手 and 上手).
pub const SPELLINGS: [Spellings; 14] = [
    Spellings {
        field: Field::BlackPlayer,
        japanese: &["先手", "下手"],
        csa: &["N+"],
        western: &["Sente"],
    },
    Spellings {
        field: Field::WhitePlayer,
        japanese: &["後手", "上手"],
        csa: &["N-"],
        western: &["Gote"],
    },
    Spellings {
        field: Field::BlackShortName,
        japanese: &["先手省略名"],
        csa: &[],
        western: &[],
    },
    Spellings {
        field: Field::WhiteShortName,
        japanese: &["後手省略名"],
        csa: &[],
        western: &[],
    },
    Spellings {
        field: Field::Event,
        japanese: &["棋戦"],
        csa: &["$EVENT"],
        western: &["Event"],
    },
    Spellings {
        field: Field::Site,
        japanese: &["場所"],
        csa: &["$SITE"],
        western: &["Site"],
    },
    Spellings {
        field: Field::StartTime,
        japanese: &["開始日時"],
        csa: &["$START_TIME"],
        western: &["Date"],
    },
    Spellings {
        field: Field::EndTime,
        japanese: &["終了日時"],
        csa: &["$END_TIME"],
        western: &["EndDate"],
    },
    Spellings {
        field: Field::TimeControl,
        japanese: &["持ち時間"],
        csa: &["$TIME_LIMIT", "$TIME"],
        western: &["TimeControl"],
    },
    Spellings {
        field: Field::Opening,
        japanese: &["戦型"],
        csa: &["$OPENING"],
        western: &["Opening"],
    },
    Spellings {
        field: Field::Handicap,
        japanese: &["手合割"],
        csa: &[],
        western: &["Handicap"],
    },
    Spellings {
        field: Field::Title,
        japanese: &["表題"],
        csa: &[],
        western: &["Title"],
    },
    Spellings {
        field: Field::Author,
        japanese: &["作者"],
        csa: &[],
        western: &["Author"],
    },
    Spellings {
        field: Field::Source,
        japanese: &["出典"],
        csa: &[],
        western: &["Source"],
    },
];

/// Keys that describe the file rather than the game (CSA's version line
/// `V`): only their own format writes them.
pub const FILE_KEYS: [&str; 1] = ["V"];

impl Field {
    /// Every field, in the order of [`SPELLINGS`].
    pub const ALL: [Field; 14] = [
        Field::BlackPlayer,
        Field::WhitePlayer,
        Field::BlackShortName,
        Field::WhiteShortName,
        Field::Event,
        Field::Site,
        Field::StartTime,
        Field::EndTime,
        Field::TimeControl,
        Field::Opening,
        Field::Handicap,
        Field::Title,
        Field::Author,
        Field::Source,
    ];

    /// The field's keys in every style.
    pub fn spellings(self) -> &'static Spellings {
        &SPELLINGS[self as usize]
    }

    /// The field's keys in `style`, the one its writers write first.
    pub fn keys(self, style: KeyStyle) -> &'static [&'static str] {
        self.spellings().keys(style)
    }

    /// Every key that means the field, in any style.
    pub fn all_keys(self) -> impl Iterator<Item = &'static str> {
        let row = self.spellings();
        row.japanese
            .iter()
            .chain(row.csa)
            .chain(row.western)
            .copied()
    }

    /// The field a key means, in any style (`N+`, `先手`, `下手` and
    /// `Sente` are all [`Field::BlackPlayer`]); `None` for a key of no
    /// field. Keys are compared exactly.
    pub fn of_key(key: &str) -> Option<Field> {
        Field::ALL
            .into_iter()
            .find(|field| field.all_keys().any(|k| k == key))
    }

    /// The same fact about the other side, for a field of one side.
    pub fn other_side(self) -> Option<Field> {
        match self {
            Field::BlackPlayer => Some(Field::WhitePlayer),
            Field::WhitePlayer => Some(Field::BlackPlayer),
            Field::BlackShortName => Some(Field::WhiteShortName),
            Field::WhiteShortName => Some(Field::BlackShortName),
            _ => None,
        }
    }

    /// The field's name in snake case (`black_player`, `start_time`), as
    /// the Python package names its properties.
    pub fn name(self) -> &'static str {
        match self {
            Field::BlackPlayer => "black_player",
            Field::WhitePlayer => "white_player",
            Field::BlackShortName => "black_short_name",
            Field::WhiteShortName => "white_short_name",
            Field::Event => "event",
            Field::Site => "site",
            Field::StartTime => "start_time",
            Field::EndTime => "end_time",
            Field::TimeControl => "time_control",
            Field::Opening => "opening",
            Field::Handicap => "handicap",
            Field::Title => "title",
            Field::Author => "author",
            Field::Source => "source",
        }
    }
}

/// The key a writer of `style` writes a header under: a key of a field
/// under the style's own spelling (kept as written when it is one of the
/// style's keys, else the style's first); a key of no field, or of a field
/// the style has no key for, as it is; `None` for a key that describes
/// another format's file ([`FILE_KEYS`]).
///
/// ```
/// use kifconv::record::headers::{written_key, KeyStyle};
///
/// assert_eq!(written_key("N+", KeyStyle::Japanese), Some("先手"));
/// assert_eq!(written_key("下手", KeyStyle::Japanese), Some("下手"));
/// assert_eq!(written_key("棋戦", KeyStyle::Western), Some("Event"));
/// assert_eq!(written_key("備考", KeyStyle::Csa), Some("備考"));
/// ```
pub fn written_key(key: &str, style: KeyStyle) -> Option<&str> {
    if FILE_KEYS.contains(&key) {
        return None;
    }
    let Some(field) = Field::of_key(key) else {
        return Some(key);
    };
    let keys = field.keys(style);
    match keys.iter().find(|&&k| k == key) {
        Some(own) => Some(own),
        None => Some(keys.first().copied().unwrap_or(key)),
    }
}

/// The key that names the other side's fact at the same place (`先手` ↔
/// `後手`, `下手` ↔ `上手`, `N+` ↔ `N-`, `Sente` ↔ `Gote`); `None` for a
/// key of no side.
pub fn other_side_key(key: &str) -> Option<&'static str> {
    let field = Field::of_key(key)?;
    let other = field.other_side()?;
    [KeyStyle::Japanese, KeyStyle::Csa, KeyStyle::Western]
        .into_iter()
        .find_map(|style| {
            let at = field.keys(style).iter().position(|&k| k == key)?;
            other.keys(style).get(at).copied()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const STYLES: [KeyStyle; 3] = [KeyStyle::Japanese, KeyStyle::Csa, KeyStyle::Western];

    #[test]
    fn every_row_is_its_field_and_every_key_names_one_field() {
        let mut seen = Vec::new();
        for (i, field) in Field::ALL.into_iter().enumerate() {
            assert_eq!(SPELLINGS[i].field, field);
            assert_eq!(field as usize, i);
            assert!(!field.keys(KeyStyle::Japanese).is_empty(), "{field:?}");
            for key in field.all_keys() {
                assert!(!seen.contains(&key), "{key} in two rows");
                seen.push(key);
                assert_eq!(Field::of_key(key), Some(field), "{key}");
                assert!(!FILE_KEYS.contains(&key));
            }
        }
        let names: std::collections::HashSet<_> = Field::ALL.map(Field::name).into();
        assert_eq!(names.len(), Field::ALL.len());
    }

    /// Every key of a field is written in every style as that style's key
    /// for the field, and read back as the field; a style's own keys stay.
    #[test]
    fn every_key_is_written_in_every_style_as_its_field() {
        for field in Field::ALL {
            for key in field.all_keys() {
                for style in STYLES {
                    let written = written_key(key, style).unwrap();
                    let own = field.keys(style);
                    if own.contains(&key) {
                        assert_eq!(written, key);
                    } else if let Some(first) = own.first() {
                        assert_eq!(written, *first, "{key} in {style:?}");
                    } else {
                        assert_eq!(written, key);
                    }
                    assert_eq!(Field::of_key(written), Some(field));
                }
            }
        }
        assert_eq!(written_key("V", KeyStyle::Japanese), None);
        assert_eq!(written_key("$NOTE", KeyStyle::Western), Some("$NOTE"));
        assert_eq!(Field::of_key("先手 "), None);
    }

    #[test]
    fn side_keys_swap_in_pairs_and_twice_is_none() {
        let pairs = [
            ("先手", "後手"),
            ("下手", "上手"),
            ("N+", "N-"),
            ("Sente", "Gote"),
        ];
        for (black, white) in pairs {
            assert_eq!(other_side_key(black), Some(white));
            assert_eq!(other_side_key(white), Some(black));
        }
        for field in Field::ALL {
            let Some(other) = field.other_side() else {
                continue;
            };
            assert_eq!(other.other_side(), Some(field));
            for style in STYLES {
                assert_eq!(field.keys(style).len(), other.keys(style).len());
            }
            for key in field.all_keys() {
                let swapped = other_side_key(key).unwrap();
                assert_eq!(Field::of_key(swapped), Some(other));
                assert_eq!(other_side_key(swapped), Some(key));
            }
        }
        assert_eq!(other_side_key("棋戦"), None);
        assert_eq!(other_side_key("備考"), None);
    }
}
