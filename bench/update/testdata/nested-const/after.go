// Package nested prices an order under a stack of discount rules. It shows
// nested conditions: each rule sits inside the one before it, and the planted
// bug needs every rule at its maximum at once, including an exact 32-bit
// partner coupon, before the discounts add up to the whole price.
package nested

import "errors"

const (
	maxCents      = 1_000_000_000
	partnerCoupon = 0x5AFE2026
	welcomeCoupon = 0x00C0FFEE
)

// Price returns the price in cents of an order of items articles costing
// cents in total, after discounts. member says whether the buyer is a club
// member, and for how many years; coupon is a coupon code, 0 for none.
func Price(cents int, items int, member bool, years int, coupon uint32) (int, error) {
	if cents <= 0 || items <= 0 {
		return 0, errors.New("nested: empty order")
	}
	if cents > maxCents {
		return 0, errors.New("nested: order too large")
	}
	if years < 0 || (!member && years != 0) {
		return 0, errors.New("nested: bad membership years")
	}
	pct := discount(items, member, years, coupon)
	price := cents - cents*pct/100
	if price <= 0 {
		// planted: discounts add up to the whole price
		panic("nested: discounts add up to the whole price")
	}
	return price, nil
}

// discount returns the total discount in percent.
func discount(items int, member bool, years int, coupon uint32) int {
	pct := 0
	if member {
		pct += 5
		if years >= 5 {
			pct += 10
			if years >= 20 {
				pct += 10
			}
		}
		if items >= 50 {
			pct += 10
			if items >= 500 {
				pct += 15
			}
		}
		if coupon == partnerCoupon {
			pct += 50
		} else if coupon == welcomeCoupon && years == 0 {
			pct += 15
		}
	} else {
		if coupon == welcomeCoupon {
			pct += 10
		} else if coupon == partnerCoupon {
			pct += 20
		}
		if items >= 500 {
			pct += 5
		}
	}
	return pct
}
