use slasim_single::cluster::ExecutionRecord;
use slasim_single::cluster::record::JobRecord;
use slasim_single::cluster::record::{Outcome, RunRecords};
use slasim_single::report::batsim_jobs::*;
use slasim_single::workload::job::Job;

#[test]
fn rows_follow_batsim_columns() {
    let jobs = [
        Job { swf_id: 7, ..Job::without_sla(0, 5, 2, 60, 30) },
        Job { swf_id: 8, ..Job::without_sla(1, 6, 1, 20, 90) },
        Job { swf_id: 9, ..Job::without_sla(2, 7, 9, 20, 5) },
    ];
    let done = JobRecord {
        accepted: true,
        actual_start: Some(10),
        actual_end: Some(40),
        outcome: Some(Outcome::Success),
        ..JobRecord::new(0)
    };
    let killed = JobRecord { accepted: true, outcome: Some(Outcome::Success), ..JobRecord::new(1) };
    let rejected = JobRecord { outcome: Some(Outcome::Rejected), ..JobRecord::new(2) };
    let executions = vec![
        ExecutionRecord { job: 0, start: 10, end: 40, nodes: vec![3, 0, 1] },
        ExecutionRecord { job: 1, start: 40, end: 60, nodes: vec![2] },
    ];
    let records = RunRecords { jobs: jobs.into(), records: vec![done, killed, rejected] };
    let text = job_table(&records, &executions);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], HEADER);
    assert_eq!(
        lines[1],
        "7,w0,delay30,5,2,60,1,COMPLETED_SUCCESSFULLY,10,30,40,5,35,1.1666666666666667,0-1 3,-1,,success,,0,,0,0,0"
    );
    assert_eq!(lines[2], "8,w0,delay90,6,1,20,0,COMPLETED_WALLTIME_REACHED,40,20,60,34,54,2.7,2,-1,,success,,0,,0,0,0");
    assert_eq!(lines[3], "9,w0,delay5,7,9,20,0,REJECTED,,,,,,,,-1,,rejected,,0,,0,0,0");
    assert_eq!(lines.len(), 4);
}
