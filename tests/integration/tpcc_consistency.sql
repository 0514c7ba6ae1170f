-- TPC-C consistency conditions 1-4 (clause 3.3.2.1-4), written independently
-- of iomark's checker. Each query prints the number of violating rows; all
-- four must print 0. Plain SQL for both sqlite3 and psql.
SELECT count(*) FROM warehouse w
 WHERE abs(w.w_ytd - (SELECT sum(d.d_ytd) FROM district d WHERE d.d_w_id = w.w_id)) >= 0.005;
SELECT count(*) FROM district d
 WHERE d.d_next_o_id - 1 <> (SELECT max(o.o_id) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id)
    OR d.d_next_o_id - 1 <> coalesce((SELECT max(n.no_o_id) FROM new_order n
                                       WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id), d.d_next_o_id - 1);
SELECT count(*) FROM (SELECT no_w_id, no_d_id FROM new_order GROUP BY no_w_id, no_d_id
                      HAVING count(*) <> max(no_o_id) - min(no_o_id) + 1) x;
SELECT count(*) FROM (SELECT o_w_id, o_d_id, sum(o_ol_cnt) AS s FROM orders GROUP BY o_w_id, o_d_id) o
 WHERE o.s <> (SELECT count(*) FROM order_line l WHERE l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id);
