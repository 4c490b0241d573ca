use serde_json::json;

use super::*;
use crate::check::analyze;

fn item(value: Json) -> Item {
    read_item(&value, "$").unwrap()
}

fn size_of(value: Json) -> u64 {
    item_size(&item(value))
}

#[test]
fn the_aws_shirt_item_is_23_bytes() {
    // Rule 2.4 (AWS, "Service, account, and table quotas", item size):
    // "an item with two attributes: one attribute named "shirt-color" with
    // value "R" and another attribute named "shirt-size" with value "M". The
    // total size of that item is 23 bytes."
    assert_eq!(
        size_of(json!({"shirt-color": {"S": "R"}, "shirt-size": {"S": "M"}})),
        23
    );
    assert_eq!(size_of(json!({"shirt-color": "R", "shirt-size": "M"})), 23);
}

#[test]
fn values_are_sized_by_rules_2_2_and_2_3() {
    // Rule 2.2: strings are UTF-8 bytes ("é" is two), binary the decoded
    // bytes, booleans and null one byte.
    assert_eq!(size_of(json!({"a": {"S": "é"}})), 1 + 2);
    assert_eq!(size_of(json!({"a": {"B": "AAEC"}})), 1 + 3);
    assert_eq!(size_of(json!({"a": {"BOOL": false}, "b": {"NULL": true}})), 4);
    // Numbers: the crate's one rule (cost::number_size).
    assert_eq!(size_of(json!({"n": {"N": "123"}})), 1 + 3);
    assert_eq!(size_of(json!({"n": 123})), 1 + 3);
    assert_eq!(size_of(json!({"n": {"N": "1.5E+3"}})), 1 + 2);
    // Rule 2.3: a list or map is 3 bytes plus one per element plus the
    // elements (a map's names included).
    assert_eq!(
        size_of(json!({"l": {"L": [{"S": "ab"}, {"BOOL": true}]}})),
        1 + 3 + (2 + 1) + (1 + 1)
    );
    assert_eq!(size_of(json!({"m": {"M": {"k": {"S": "v"}}}})), 1 + 3 + (1 + 1 + 1));
    assert_eq!(size_of(json!({"l": [], "m": {}})), 2 + 3 + 3);
    // Sets: the sum of their elements (unverified, rule 2.3).
    assert_eq!(
        size_of(json!({"s": {"SS": ["ab", "c"]}, "n": {"NS": ["1", "22"]}})),
        1 + 3 + 1 + 2 + 2
    );
    assert_eq!(size_of(json!({"b": {"BS": ["AA==", "AAA="]}})), 1 + 1 + 2);
}

#[test]
fn the_format_is_detected_per_item() {
    assert_eq!(item(json!({"pk": {"S": "A"}})).format, Format::DynamodbJson);
    assert_eq!(item(json!({})).format, Format::DynamodbJson);
    // One plain value makes the whole item plain: `a` is a map holding `S`.
    let mixed = item(json!({"a": {"S": "x"}, "b": 3}));
    assert_eq!(mixed.format, Format::Plain);
    assert_eq!(
        mixed.get("a"),
        Some(&AttrValue::M(vec![("S".into(), AttrValue::S("x".into()))]))
    );
    // Two keys are not one descriptor.
    assert_eq!(item(json!({"a": {"S": "x", "N": "1"}})).format, Format::Plain);
}

#[test]
fn read_and_write_units_round_as_aws_documents() {
    // Rule 8.5 (AWS, "DynamoDB read consumption"): GetItem rounds 3.5 KB up
    // to 4 KB and 10 KB up to 12 KB.
    assert_eq!(capacity(3584).read_strong, 1.0);
    assert_eq!(capacity(10 * 1024).read_strong, 3.0);
    // Rule 3.3: an 8 KB item costs 2 / 1 / 4 (strong / eventual / transactional).
    let eight = capacity(8 * 1024);
    assert_eq!(
        (eight.read_strong, eight.read_eventual, eight.read_transactional),
        (2.0, 1.0, 4.0)
    );
    // Rules 3.2, 3.7: writes round up to 1 KB, transactional twice; the
    // smallest read or write still costs one unit (rule 3.6).
    let small = capacity(23);
    assert_eq!((small.read_strong, small.read_eventual), (1.0, 0.5));
    assert_eq!((small.write, small.write_transactional), (1.0, 2.0));
    assert_eq!(capacity(1024).write, 1.0);
    assert_eq!(capacity(1025).write, 2.0);
    assert_eq!(capacity(3584).write_transactional, 8.0);
}

#[test]
fn batch_get_rounds_each_item_and_query_rounds_once() {
    // Rule 8.5: BatchGetItem of 1.5 KB + 6.5 KB counts as 12 KB, not 8 KB.
    let two = summary(&[1536, 6656]);
    assert_eq!(two.batch_get_strong, 3.0);
    assert_eq!(two.query_strong, 2.0);
    assert_eq!((two.batch_get_eventual, two.query_eventual), (1.5, 1.0));
    assert_eq!((two.min, two.max, two.total, two.average), (1536, 6656, 8192, 4096.0));
    // Rule 8.1: 8 items × 2,000 B read by one Query = 16,000 B → 16 KB, 2 RCU
    // eventually consistent.
    assert_eq!(summary(&[2000; 8]).query_eventual, 2.0);
    // Rule 8.3: 1,500 items of 64 B = 96 KB → 24 / 12 RCU; read one by one,
    // 1,500 units.
    let many = summary(&[64; 1500]);
    assert_eq!((many.query_strong, many.query_eventual), (24.0, 12.0));
    assert_eq!(many.batch_get_strong, 1500.0);
    assert_eq!(many.write, 1500.0);
    // Rule 8.6: 200 items × 2 KB, one Query = 400 KB → 100 / 50 RCU.
    let hundred = summary(&[2048; 200]);
    assert_eq!((hundred.query_strong, hundred.query_eventual), (100.0, 50.0));
    // No items: nothing to average; a Query still costs one unit.
    let none = summary(&[]);
    assert_eq!(
        (none.count, none.average, none.query_strong, none.write),
        (0, 0.0, 1.0, 0.0)
    );
}

#[test]
fn the_400_kb_limit_counts_names_and_is_inclusive() {
    // Rule 2.4: 400 KB is the maximum, names included.
    let at_limit = item(json!({"a": "x".repeat(MAX_ITEM_BYTES as usize - 1)}));
    assert_eq!(item_size(&at_limit), MAX_ITEM_BYTES);
    assert!(problems(&at_limit, MAX_ITEM_BYTES).is_empty());
    let over = item(json!({"ab": "x".repeat(MAX_ITEM_BYTES as usize - 1)}));
    let problems = problems(&over, item_size(&over));
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].contains("over DynamoDB's 400 KB item limit"),
        "{problems:?}"
    );
}

#[test]
fn empty_sets_and_deep_nesting_are_problems() {
    let it = item(json!({"m": {"M": {"tags": {"SS": []}}}}));
    assert_eq!(
        problems(&it, item_size(&it)),
        vec!["`m.tags` is an empty set: DynamoDB does not store empty sets".to_string()]
    );
    let mut deep = json!(1);
    for _ in 0..33 {
        deep = json!([deep]);
    }
    let it = item(json!({ "d": deep }));
    assert_eq!(problems(&it, item_size(&it)).len(), 1);
}

#[test]
fn bad_input_says_where() {
    let err = |value: Json| read_item(&value, "$[2]").unwrap_err().to_string();
    assert_eq!(err(json!({"n": {"N": "12x"}})), "$[2].n.N: `12x` is not a number");
    assert_eq!(
        err(json!({"n": {"N": 12}})),
        "$[2].n.N: DynamoDB JSON writes a number as a string: \"12\""
    );
    assert_eq!(
        err(json!({"l": {"L": [{"S": "a"}, {"B": "!!"}]}})),
        "$[2].l.L[1].B: invalid base64: `!` is not a base64 character"
    );
    assert_eq!(
        err(json!({"b": {"B": "A"}})),
        "$[2].b.B: invalid base64: `A` has a wrong length or padding"
    );
    assert_eq!(
        err(json!({"m": {"M": {"odd key": 3}}})),
        "$[2].m.M[\"odd key\"]: expected a typed value such as {\"S\": \"text\"}, found a number"
    );
    assert_eq!(
        err(json!({"x": {"NULL": false}})),
        "$[2].x.NULL: expected true, found false"
    );
    assert_eq!(
        err(json!([1])),
        "$[2]: expected an item (a JSON object), found an array"
    );
    assert!(err(json!({"n": {"N": "1".repeat(39)}})).contains("39 significant digits"));
    assert!(items_of(&json!("text"), "").is_err());
}

#[test]
fn documents_are_one_item_an_array_json_lines_or_batch_writes() {
    let docs = documents("{\"a\": 1}\n[{\"b\": 2}, {\"c\": 3}]\n").unwrap();
    assert_eq!(docs.len(), 2);
    let paths = |doc: &Json| {
        items_of(doc, "")
            .unwrap()
            .into_iter()
            .map(|(p, _)| p)
            .collect::<Vec<_>>()
    };
    assert_eq!(paths(&docs[0]), ["$"]);
    assert_eq!(paths(&docs[1]), ["$[0]", "$[1]"]);
    let batch = json!({"RequestItems": {"Billing": [
        {"PutRequest": {"Item": {"pk": {"S": "A"}}}},
        {"DeleteRequest": {"Key": {"pk": {"S": "B"}}}},
        {"PutRequest": {"Item": {"pk": {"S": "C"}}}},
    ]}});
    assert_eq!(
        paths(&batch),
        [
            "$.RequestItems.Billing[0].PutRequest.Item",
            "$.RequestItems.Billing[2].PutRequest.Item"
        ]
    );
    // `dyno sample --format json`: each table's items, with their entity.
    let sampled = json!({"version": 1, "seed": 1, "tables": [
        {"table": "Billing", "items": [{"entity": "Tenant", "item": {"pk": "T#a"}}]},
        {"table": "Events", "items": [{"entity": "Event", "item": {"pk": "E#a"}}, {"entity": "Event", "item": {"pk": "E#b"}}]},
    ]});
    assert_eq!(
        paths(&sampled),
        [
            "$.tables[0].items[0].item",
            "$.tables[1].items[0].item",
            "$.tables[1].items[1].item"
        ]
    );
    assert_eq!(
        documents("{\"a\": 1}\n{oops").unwrap_err().to_string(),
        "line 2 column 2 (document 2): not JSON: key must be a string at line 2 column 2"
    );
    assert!(documents("  ").is_err());
}

#[test]
fn numbers_are_checked_as_dynamodb_reads_them() {
    for good in ["0", "-12.5", "+3", ".5", "5.", "1e10", "1.5E-3", "007"] {
        assert_eq!(check_number(good), Ok(()), "{good}");
    }
    for bad in [
        "", "-", ".", "1e", "1e+", "0x10", "1.2.3", "NaN", "Infinity", " 1", "1 ",
    ] {
        assert!(check_number(bad).is_err(), "{bad}");
    }
}

#[test]
fn base64_decodes_with_or_without_padding() {
    assert_eq!(base64_decode(""), Ok(vec![]));
    assert_eq!(base64_decode("aGk="), Ok(b"hi".to_vec()));
    assert_eq!(base64_decode("aGk"), Ok(b"hi".to_vec()));
    assert_eq!(base64_decode("aGVsbG8/Pz4+"), Ok(b"hello??>>".to_vec()));
    assert!(base64_decode("aGk==").is_err());
    assert!(base64_decode("a=Gk").is_err());
}

const BILLING: &str = include_str!("../../examples/billing.dyno");

fn entity_names(schema: &str, value: Json) -> Vec<String> {
    let analysis = analyze(schema);
    let model = &analysis.schema.model;
    identify(model, &item(value))
        .into_iter()
        .map(|m| model.entity(m.entity).name.text.to_string())
        .collect()
}

#[test]
fn items_are_identified_by_their_key_templates() {
    let invoice = json!({"pk": "TENANT#t1", "sk": "INVOICE#000042", "gsi1pk": "STATUS#open", "gsi1sk": "2024-05-01"});
    assert_eq!(entity_names(BILLING, invoice), ["Invoice"]);
    assert_eq!(
        entity_names(BILLING, json!({"pk": {"S": "TENANT#t1"}, "sk": {"S": "META"}})),
        ["Tenant"]
    );
    // An unpadded number is not what `int(pad 6)` writes.
    assert!(entity_names(BILLING, json!({"pk": "TENANT#t1", "sk": "INVOICE#42"})).is_empty());
    // An index key the item has must match as well.
    assert!(
        entity_names(
            BILLING,
            json!({"pk": "TENANT#t1", "sk": "USER#u1", "gsi1pk": "ROLE#owner"})
        )
        .is_empty()
    );
    // The table's keys are required; a key of the wrong type matches nothing.
    assert!(entity_names(BILLING, json!({"pk": "TENANT#t1"})).is_empty());
    assert!(entity_names(BILLING, json!({"pk": "TENANT#t1", "sk": 7})).is_empty());
}

#[test]
fn number_keys_match_as_numbers() {
    let schema = "table Scores {\n  key pk, sk: number\n}\n\nentity Score {\n  game: id\n  points: int\n  pk = \"GAME#{game}\"\n  sk = \"{points}\"\n}\n";
    assert_eq!(entity_names(schema, json!({"pk": "GAME#g", "sk": 120})), ["Score"]);
    assert_eq!(
        entity_names(schema, json!({"pk": {"S": "GAME#g"}, "sk": {"N": "120"}})),
        ["Score"]
    );
    assert!(entity_names(schema, json!({"pk": "GAME#g", "sk": "120"})).is_empty());
}

#[test]
fn the_expected_size_is_the_hint_or_the_estimate() {
    let schema = "table T {\n  key pk\n}\n\nentity Big ~2KB {\n  id: id\n  pk = \"BIG#{id}\"\n}\n\nentity Small {\n  id: id\n  pk = \"SMALL#{id}\"\n}\n";
    let analysis = analyze(schema);
    let model = &analysis.schema.model;
    let big = identify(model, &item(json!({"pk": "BIG#1"})));
    assert_eq!(
        expected(model, big[0]),
        Expected {
            bytes: 2048.0,
            hinted: true,
            estimated: false
        }
    );
    let small = identify(model, &item(json!({"pk": "SMALL#1"})));
    let estimate = expected(model, small[0]);
    assert!(!estimate.hinted && estimate.estimated);
    assert_eq!(estimate.bytes, cost::item_size(model, small[0].entity, 0).size.bytes);
}

#[test]
fn key_values_dynamodb_rejects_are_problems() {
    let analysis = analyze(BILLING);
    let model = &analysis.schema.model;
    let table = model.table_named("Billing").unwrap();
    let problems = |value: Json| key_problems(model, table, &item(value));
    assert!(problems(json!({"pk": "TENANT#t1", "sk": "META"})).is_empty());
    // Rule 2.5: 2048 bytes of partition key, 1024 of sort key.
    assert!(problems(json!({"pk": "p".repeat(2048), "sk": "s".repeat(1024)})).is_empty());
    assert_eq!(
        problems(json!({"pk": "p".repeat(2049), "sk": "s".repeat(1025)})),
        [
            "`pk` is 2049 B: a partition key value holds at most 2048 B (rule 2.5)",
            "`sk` is 1025 B: a sort key value holds at most 1024 B (rule 2.5)"
        ]
    );
    // Rule 2.6: no empty key values, of the table or of an index; and a key
    // of the wrong type is rejected.
    assert_eq!(
        problems(json!({"pk": "", "sk": 7, "gsi1pk": ""})),
        [
            "`pk` is empty: a key of table Billing cannot be (rule 2.6)",
            "`sk` is a Number, but it is a string key of table Billing: a write of it is rejected",
            "`gsi1pk` is empty: a key of index gsi1 cannot be (rule 2.6)"
        ]
    );
}

#[test]
fn an_item_and_its_local_index_entries_share_the_400_kb() {
    let schema = "table T {\n  key pk, sk\n  local index byAll (pk, at) all\n  local index byKeys (pk, at2) keys_only\n}\n\
                  entity E {\n  id: id\n  at: string\n  at2: string?\n  body: string\n  pk = \"E#{id}\"\n  sk = \"E\"\n}\n";
    let analysis = analyze(schema);
    let model = &analysis.schema.model;
    let table = model.table_named("T").unwrap();
    let problems = |value: Json| {
        let item = item(value);
        local_index_problems(model, table, &item, item_size(&item))
    };
    // 250 KB of body: under 400 KB alone, but `byAll` projects it again.
    let body = "b".repeat(250 * 1024);
    let over = problems(json!({"pk": "E#1", "sk": "E", "at": "x", "body": body}));
    assert_eq!(over.len(), 1, "{over:?}");
    assert!(over[0].contains("byAll"), "{over:?}");
    assert!(!over[0].contains("byKeys"), "sparse: no `at2`, no entry: {over:?}");
    // Without `at` the item is in no `all` index: 250 KB is fine.
    assert!(problems(json!({"pk": "E#1", "sk": "E", "at2": "y", "body": body})).is_empty());
    // A keys-only index copies only the keys.
    let small = "b".repeat(150 * 1024);
    assert!(problems(json!({"pk": "E#1", "sk": "E", "at": "x", "at2": "y", "body": small})).is_empty());
    // Two hundred and one KB in the table and again in `byAll`: over.
    let edge = "b".repeat(201 * 1024);
    assert_eq!(
        problems(json!({"pk": "E#1", "sk": "E", "at": "x", "body": edge})).len(),
        1
    );
}

#[test]
fn a_number_key_is_matched_as_dynamodb_stores_it() {
    let analysis = analyze("table T {\n  key id: number\n}\nentity E {\n  id: int\n}\n");
    let model = &analysis.schema.model;
    // `007` is stored (and read back) as the number 7: an `int` key.
    assert_eq!(identify(model, &item(json!({"id": {"N": "007"}}))).len(), 1);
    assert_eq!(identify(model, &item(json!({"id": {"N": "7"}}))).len(), 1);
    assert!(identify(model, &item(json!({"id": {"N": "7.5"}}))).is_empty());
}
