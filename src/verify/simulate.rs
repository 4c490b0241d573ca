//! Verify against a perfect endpoint: each pattern's Query is answered from
//! the samples themselves (what its key condition selects, in key order,
//! `Limit` items on the first page). A correct Query passes; a wrong one —
//! whoever resolved it — fails on what the pattern means.

use serde_json::{Map, Value as Json};

use super::judge::{Failure, Probe, Returned, Verdict, check, probe_limit};
use super::pages::{Pages, merge_by_key};
use super::plan::{ConcreteQuery, Plan, key_condition_holds, key_order, plan};
use crate::check::analyze;
use crate::check::model::Model;
use crate::check::model::PatternId;
use crate::check::resolve::pinned_as_written;
use crate::check::sample::{Options, SampleItem, Samples, generate};

struct Run {
    name: String,
    plan: Plan,
    returned: usize,
    verdict: Verdict,
}

/// What a perfect endpoint returns for the plan's read, in order: its
/// Query's items, or each shard's Query's, merged as verify merges them.
fn answer(model: &Model, samples: &Samples, plan: &Plan, limit: Option<u64>) -> Pages {
    match plan.requests() {
        [one] => answer_query(model, samples, plan, one, limit),
        shards => {
            let shards = shards
                .iter()
                .map(|query| answer_query(model, samples, plan, query, limit))
                .collect();
            merge_by_key(plan.query.key_schema(model), plan.query.forward, limit, shards)
        }
    }
}

/// One Query's items, in key order, `limit` of them on the first page.
fn answer_query(model: &Model, samples: &Samples, plan: &Plan, query: &ConcreteQuery, limit: Option<u64>) -> Pages {
    let access = query.key_schema(model);
    let items = &samples.tables[query.table.index()].items;
    let mut returned: Vec<&SampleItem> = plan
        .expected
        .iter()
        .map(|&n| &items[n])
        .filter(|i| key_condition_holds(&i.item, access, query))
        .collect();
    returned.sort_by(|a, b| key_order(access, query.forward, &a.item, &b.item));
    let items: Vec<Map<String, Json>> = returned.into_iter().map(|i| i.item.clone()).collect();
    Pages {
        first_page: limit.map_or(items.len(), |l| items.len().min(l as usize)),
        items,
        pages: 1,
    }
}

/// Every pattern with a Query: the checker's, or a pinned one as written.
fn simulate(source: &str) -> Vec<Run> {
    let analysis = analyze(source);
    let model = &analysis.schema.model;
    let samples = generate(model, &Options::default());
    let mut out = Vec::new();
    for (i, pattern) in model.pattern_ids() {
        let (resolution, ok) = match analysis.schema.resolution(i) {
            Some(r) => (r.clone(), true),
            None => match pinned_as_written(&[analysis.source(source)], model, &analysis.schema.registry, pattern) {
                Some(r) => (r, false),
                None => continue,
            },
        };
        let plan = plan(model, &samples, i, &resolution, ok);
        let Pages { items, first_page, .. } = answer(model, &samples, &plan, plan.query.limit);
        let probe = probe_limit(model, &samples, &plan);
        let probed = answer(model, &samples, &plan, probe);
        let probe_items = &probed.items[..probed.first_page];
        let returned = Returned {
            items: &items,
            first_page,
            probe: probe.map(|limit| Probe {
                limit,
                items: probe_items,
            }),
        };
        let verdict = check(model, &samples, &plan, returned);
        out.push(Run {
            name: pattern.name.text.to_string(),
            returned: items.len(),
            plan,
            verdict,
        });
    }
    out
}

/// The plan of the first pattern of `source`, with the samples it reads.
fn first_pattern_planned(source: &str) -> (crate::check::Analysis, Samples, Plan) {
    let analysis = analyze(source);
    let samples = generate(&analysis.schema.model, &Options::default());
    let resolution = analysis.schema.resolutions[0].clone().expect("resolved");
    let plan = plan(&analysis.schema.model, &samples, PatternId::new(0), &resolution, true);
    (analysis, samples, plan)
}

fn run<'r>(runs: &'r [Run], name: &str) -> &'r Run {
    runs.iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("`{name}` has a Query"))
}

fn failure<'r>(run: &'r Run, kind: &str) -> &'r Failure {
    run.verdict
        .failures
        .iter()
        .find(|f| f.kind == kind)
        .unwrap_or_else(|| panic!("`{}` fails with `{kind}`: {:#?}", run.name, run.verdict.failures))
}

#[test]
fn every_bundled_pattern_selects_items_and_passes_on_a_perfect_endpoint() {
    for source in [
        include_str!("../../examples/billing.dyno"),
        include_str!("../../examples/shop.dyno"),
        include_str!("../../examples/teams.dyno"),
    ] {
        for run in simulate(source) {
            assert!(run.returned > 0, "{}: the samples give it nothing to return", run.name);
            assert!(
                !run.plan.matching.is_empty(),
                "{}: nothing matches its known values",
                run.name
            );
            assert!(
                run.verdict.failures.is_empty(),
                "{}: {:#?}",
                run.name,
                run.verdict.failures
            );
        }
    }
}

#[test]
fn a_leaking_pinned_query_names_the_leaked_entity() {
    let source = r#"
table App { key pk, sk }
entity User { tenantId: id  userId: id  pk = "TENANT#{tenantId}"  sk = "USER#{userId}" }
entity UserGroup { tenantId: id  groupId: id  pk = "TENANT#{tenantId}"  sk = "USERGROUP#{groupId}" }
pattern users(tenantId) -> User[] = query App where pk = "TENANT#{tenantId}" and begins_with(sk, "USER")
"#;
    let runs = simulate(source);
    let leaked = failure(run(&runs, "users"), "leaked");
    assert!(leaked.message.contains("`UserGroup`"), "{}", leaked.message);
    assert!(leaked.items.iter().all(|i| i.entity.as_deref() == Some("UserGroup")));
}

#[test]
fn unpadded_numbers_come_back_in_the_wrong_order() {
    let source = r#"
table App { key pk, sk }
entity Invoice { tenantId: id  number: int  pk = "TENANT#{tenantId}"  sk = "INVOICE#{number}" }
pattern invoices(tenantId) -> Invoice[] by number =
  query App where pk = "TENANT#{tenantId}" and begins_with(sk, "INVOICE#")
"#;
    let runs = simulate(source);
    failure(run(&runs, "invoices"), "order");
}

// The wrong-but-"ok" resolutions, pinned exactly as the checker resolved
// them when this was written, so these run whatever the checker says today.

#[test]
fn a_plain_attribute_the_query_ignores_shows_the_other_values_coming_back() {
    let source = r#"
table T { key pk, sk }
entity Product { storeId: id  productId: id  color: enum(red, blue)  pk = "STORE#{storeId}"  sk = "PRODUCT#{productId}" }
pattern productsByColor(storeId, color) -> Product[] = query T where pk = "STORE#{storeId}" and begins_with(sk, "PRODUCT#")
"#;
    let runs = simulate(source);
    let run = run(&runs, "productsByColor");
    assert!(
        run.plan.params.iter().any(|(k, _)| k == "color"),
        "{:?}",
        run.plan.params
    );
    let wrong = failure(run, "wrong-item");
    assert!(wrong.message.contains("color = "), "{}", wrong.message);
    assert!(!wrong.items.is_empty());
    assert!(wrong.items.iter().all(|i| i.entity.as_deref() == Some("Product")));
}

#[test]
fn a_parent_prefix_returns_every_parent_not_the_one_asked_for() {
    let source = r#"
table Shop { key pk, sk }
entity Order { customerId: id  orderId: id  pk = "CUSTOMER#{customerId}"  sk = "ORDER#{orderId}" }
entity OrderLine { customerId: id  orderId: id  lineNo: int(pad 3)  pk = "CUSTOMER#{customerId}"  sk = "ORDER#{orderId}#LINE#{lineNo}" }
pattern orderWithLines(customerId, orderId) -> Order, OrderLine[] = query Shop where pk = "CUSTOMER#{customerId}" and begins_with(sk, "ORDER#")
pattern narrowed(customerId, orderId) -> Order, OrderLine[] = query Shop where pk = "CUSTOMER#{customerId}" and begins_with(sk, "ORDER#{orderId}")
"#;
    let runs = simulate(source);
    let wrong = failure(run(&runs, "orderWithLines"), "wrong-item");
    assert!(
        wrong.items.iter().any(|i| i.entity.as_deref() == Some("Order")),
        "{wrong:#?}"
    );
    // Narrowed to the order id, it still reads the prefix twin (`12` / `123`).
    let narrowed = run(&runs, "narrowed");
    let wrong = failure(narrowed, "wrong-item");
    let asked = &narrowed.plan.params.iter().find(|(k, _)| k == "orderId").unwrap().1;
    assert!(
        wrong.items.iter().all(|i| i
            .key
            .iter()
            .any(|(k, v)| k == "sk" && v.starts_with(&format!("ORDER#{asked}")))),
        "{wrong:#?}"
    );
}

#[test]
fn an_enum_word_that_prefixes_another_reads_both() {
    let source = r#"
table Support { key pk, sk }
entity Ticket { queueId: id  ticketId: id  priority: enum(high, "high-urgent", low)  pk = "QUEUE#{queueId}"  sk = "TICKET#{priority}{ticketId}" }
pattern highTickets(queueId, priority = high) -> Ticket[] = query Support where pk = "QUEUE#{queueId}" and begins_with(sk, "TICKET#high")
"#;
    let runs = simulate(source);
    let wrong = failure(run(&runs, "highTickets"), "wrong-item");
    assert!(
        wrong
            .items
            .iter()
            .all(|i| i.key.iter().any(|(_, v)| v.contains("high-urgent"))),
        "{wrong:#?}"
    );
}

#[test]
fn a_single_return_that_several_items_satisfy_fails_over_all_pages() {
    let source = r#"
table Shop { key pk, sk }
entity Order { customerId: id  orderId: id  pk = "CUSTOMER#{customerId}"  sk = "ORDER#{orderId}" }
entity Profile { accountId: id  pk = "ACCOUNT#{accountId}"  sk = "profile" }
entity Stats { accountId: id  logins: int  pk = "ACCOUNT#{accountId}"  sk = "counters" }
pattern oneOrder(customerId) -> Order limit 1 = query Shop where pk = "CUSTOMER#{customerId}" and begins_with(sk, "ORDER#")
pattern stats(accountId) -> Stats limit 1 = query Shop where pk = "ACCOUNT#{accountId}"
pattern statsRight(accountId) -> Stats = query Shop where pk = "ACCOUNT#{accountId}" and sk = "counters"
"#;
    let runs = simulate(source);
    let single = failure(run(&runs, "oneOrder"), "single");
    assert!(single.items.len() >= 2, "{single:#?}");
    // Profile sorts after counters: the first page is the Stats, the second
    // the Profile, which the pattern does not declare.
    failure(run(&runs, "stats"), "leaked");
    assert!(run(&runs, "statsRight").verdict.failures.is_empty());
}

#[test]
fn a_first_page_that_is_not_the_first_items_fails_the_limit() {
    let source = r#"
table App { key pk, sk }
entity Event { tenantId: id  at: datetime  pk = "TENANT#{tenantId}"  sk = "EVENT#{at}" }
pattern latest(tenantId) -> Event[] by at desc limit 2
"#;
    let (analysis, samples, plan) = first_pattern_planned(source);
    let model = &analysis.schema.model;
    let mut items = answer(model, &samples, &plan, None).items;
    assert!(items.len() > 2);
    let perfect = check(
        model,
        &samples,
        &plan,
        Returned {
            items: &items,
            first_page: 2,
            probe: None,
        },
    );
    assert!(perfect.failures.is_empty(), "{:#?}", perfect.failures);
    // The same items, but the first page holds the oldest and the newest.
    let last = items.pop().unwrap();
    items.insert(1, last);
    let verdict = check(
        model,
        &samples,
        &plan,
        Returned {
            items: &items,
            first_page: 2,
            probe: None,
        },
    );
    assert!(
        verdict.failures.iter().any(|f| f.kind == "limit"),
        "{:#?}",
        verdict.failures
    );
    // A first page with more than `limit` items.
    let verdict = check(
        model,
        &samples,
        &plan,
        Returned {
            items: &items,
            first_page: 3,
            probe: None,
        },
    );
    assert!(
        verdict
            .failures
            .iter()
            .any(|f| f.kind == "limit" && f.message.contains("more than")),
        "{:#?}",
        verdict.failures
    );
}

#[test]
fn when_no_more_items_match_than_the_limit_a_smaller_limit_probes_the_cut() {
    let source = r#"
table App { key pk, sk }
entity Event { tenantId: id  at: datetime  pk = "TENANT#{tenantId}"  sk = "EVENT#{at}" }
pattern recent(tenantId) -> Event[] by at desc limit 50
"#;
    let (analysis, samples, plan) = first_pattern_planned(source);
    let model = &analysis.schema.model;
    let items = answer(model, &samples, &plan, None).items;
    let k = probe_limit(model, &samples, &plan).expect("a probe: fewer events than 50");
    assert_eq!(k as usize, items.len() - 1);
    let judge = |probe: &[Map<String, Json>]| {
        let returned = Returned {
            items: &items,
            first_page: items.len(),
            probe: Some(Probe { limit: k, items: probe }),
        };
        check(model, &samples, &plan, returned)
    };
    let newest: Vec<_> = items[..k as usize].to_vec();
    let verdict = judge(&newest);
    assert!(
        verdict.failures.is_empty() && verdict.unexercised.is_empty(),
        "{verdict:#?}"
    );
    // A probe page cut at the wrong end: the oldest events.
    let oldest: Vec<_> = items[1..].to_vec();
    let verdict = judge(&oldest);
    let limit = verdict
        .failures
        .iter()
        .find(|f| f.kind == "limit")
        .expect("a limit failure");
    assert!(limit.message.contains(&format!("`Limit {k}`")), "{}", limit.message);
}

/// A read over every write shard: each shard's Query, merged, returns what
/// the pattern means — items of several shards, in order, the first
/// `limit` of them overall on the merged first page; one shard's Query
/// alone misses the others' items.
#[test]
fn a_sharded_read_merges_every_shard_and_one_shard_misses_items() {
    let source = include_str!("../../tests/fixtures/check/sharded.dyno");
    let runs = simulate(source);
    for run in &runs {
        assert!(run.returned > 0, "{}: nothing to return", run.name);
        assert!(
            run.verdict.failures.is_empty(),
            "{}: {:#?}",
            run.name,
            run.verdict.failures
        );
    }
    let analysis = analyze(source);
    let model = &analysis.schema.model;
    let samples = generate(model, &Options::default());
    let high = model
        .pattern_ids()
        .find(|(_, p)| p.name.text == "highScores")
        .unwrap()
        .0;
    let resolution = analysis.schema.resolution(high).unwrap();
    let mut plan = plan(model, &samples, high, resolution, true);
    assert_eq!(plan.shard_queries.len(), 10);
    let items = &samples.tables[0].items;
    let shards: std::collections::HashSet<&str> = plan
        .matching
        .iter()
        .filter_map(|&n| items[n].item["shard"]["N"].as_str())
        .collect();
    assert!(
        shards.len() >= 2,
        "the samples spread the scores over shards: {shards:?}"
    );
    // The read of one shard only.
    plan.shard_queries.truncate(1);
    let one = answer(model, &samples, &plan, None);
    let returned = Returned {
        items: &one.items,
        first_page: one.first_page,
        probe: None,
    };
    let verdict = check(model, &samples, &plan, returned);
    assert!(verdict.failures.iter().any(|f| f.kind == "missing"), "{verdict:#?}");
}
