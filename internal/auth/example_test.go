package auth_test

import (
	"context"
	"fmt"

	"github.com/tutord/tutord/internal/auth"
)

func ExampleMint() {
	secret := "a-development-secret-of-32-bytes-or-more"
	token, err := auth.Mint([]byte(secret), auth.MintOptions{Subject: "learner-1", Admin: true})
	if err != nil {
		fmt.Println(err)
		return
	}

	v, err := auth.NewVerifier(auth.Config{Secret: secret, Admin: auth.AdminRule{Claim: "role", Value: "admin"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	claims, err := v.VerifyAccess(context.Background(), token)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(claims.Subject, claims.Admin)

	_, err = v.VerifyID(context.Background(), token)
	fmt.Println(err)
	// Output:
	// learner-1 true
	// Invalid token: expected token_use='id', got 'access'
}

func ExampleBearerToken() {
	token, ok := auth.BearerToken("Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln")
	fmt.Println(token, ok)
	_, ok = auth.BearerToken("Basic dXNlcjpwYXNz")
	fmt.Println(ok)
	// Output:
	// eyJhbGciOiJIUzI1NiJ9.e30.c2ln true
	// false
}
